import Foundation
import Hummingbird
import Metrics
import PlacesCore
import Prometheus

/// What `GET /metrics` shows, in Prometheus's text format.
///
/// Requests are counted and timed by route, method and status through swift-metrics (Hummingbird's
/// `MetricsMiddleware`), which the server points at `factory` once per process; the gauges (places in the index,
/// the database's size, active decisions, how far behind the database the index is) are read when the metrics are
/// scraped.
public final class PlacesMetrics: Sendable {
    /// The collector every metric is kept in.
    public let registry: PrometheusCollectorRegistry
    private let placesIndexed: Prometheus.Gauge
    private let databaseBytes: Prometheus.Gauge?
    private let decisionsActive: Prometheus.Gauge
    private let indexChangesBehind: Prometheus.Gauge
    private let indexBehindSeconds: Prometheus.Gauge
    private let feedHorizonSeconds: Prometheus.Gauge
    private let streamsOpen: Prometheus.Gauge
    private let streamEvents: Prometheus.Counter
    private let databaseSize: (@Sendable () -> Int)?

    /// Makes the metrics; `databaseSize` says how many bytes the database's files hold (a SQLite file's; a shared
    /// PostgreSQL database is measured by its own monitoring, and has no such gauge here).
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), databaseSize: (@Sendable () -> Int)? = nil) {
        self.registry = registry
        self.databaseSize = databaseSize
        placesIndexed = registry.makeGauge(name: "places_indexed", help: "Live places in the in-memory grid index.")
        databaseBytes =
            databaseSize == nil ? nil : registry.makeGauge(name: "places_database_bytes", help: "Bytes of the SQLite database and its WAL.")
        decisionsActive = registry.makeGauge(name: "places_decisions_active", help: "Group decisions still taking ballots.")
        indexChangesBehind = registry.makeGauge(
            name: "places_index_changes_behind",
            help: "Place changes committed in the database that this instance's index has not applied."
        )
        indexBehindSeconds = registry.makeGauge(
            name: "places_index_behind_seconds",
            help: "Seconds since the oldest place change this instance's index has not applied was written (0 when it has applied every one): what to alert on."
        )
        feedHorizonSeconds = registry.makeGauge(
            name: "places_feed_horizon_age_seconds",
            help: "Seconds the oldest transaction still open on the database has held the change feed's horizon (0 when none): every instance's feed waits for it."
        )
        streamsOpen = registry.makeGauge(name: "places_streams_open", help: "Live event streams open on this instance.")
        streamEvents = registry.makeCounter(name: "places_stream_events_total", help: "Events written to live event streams.")
    }

    /// What live streams report: how many are open, and the events they write.
    public var live: LiveMetrics {
        let open = streamsOpen
        let events = streamEvents
        return LiveMetrics(streamsChanged: { change in open.increment(by: Double(change)) }, eventSent: { events.increment() })
    }

    /// The swift-metrics backend writing into `registry`, with Prometheus names and latency buckets from 100 µs.
    public var factory: PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1), .seconds(2.5), .seconds(5),
        ]
        factory.nameAndLabelSanitizer = { name, labels in
            (PlacesMetrics.metricNames[name] ?? PlacesMetrics.sanitized(name), labels.map { (PlacesMetrics.labelNames[$0.0] ?? PlacesMetrics.sanitized($0.0), $0.1) })
        }
        return factory
    }

    /// Hummingbird's metric names as Prometheus names.
    static let metricNames = [
        "hb.requests": "http_requests_total",
        "hb.request.errors": "http_request_errors_total",
        "http.server.request.duration": "http_request_duration_seconds",
        "http.server.active_requests": "http_active_requests",
        "places_unavailable": "places_unavailable_total",
    ]
    /// Hummingbird's dimensions as Prometheus labels.
    static let labelNames = [
        "http.route": "route",
        "http.request.method": "method",
        "http.response.status_code": "status",
        "error.type": "status",
    ]

    /// `name` with every character Prometheus does not allow in a name replaced by `_`.
    static func sanitized(_ name: String) -> String {
        String(name.unicodeScalars.map { scalar in
            ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
                ? Character(scalar) : "_"
        })
    }

    /// The metrics as Prometheus text, the gauges read now.
    func render(services: PlacesServices) async throws -> Response {
        placesIndexed.set(Int64(services.places.indexedCount))
        if let databaseSize { databaseBytes?.set(Int64(databaseSize())) }
        // The gauges the database answers keep their last value when it cannot (a second in all): the metrics are
        // wanted most then.
        await DatabaseDeadline.within(.seconds(1)) {
            if let active = try? await services.decisions.activeCount() { decisionsActive.set(Int64(active)) }
            if let lag = try? await services.places.indexLag() {
                indexChangesBehind.set(Int64(lag.changes))
                indexBehindSeconds.set(lag.seconds)
            }
            if let horizon = try? await services.feed.horizonAge() { feedHorizonSeconds.set(horizon) }
        }
        var response = Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        response.headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return response
    }
}
