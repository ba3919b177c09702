import Foundation
import Hummingbird
import HummingbirdTesting
import Metrics
import PlacesCore
import PlacesTestSupport
import Testing

@testable import PlacesHTTP

/// Serialized: two of its tests render the process's one registry through apps of their own, and a render sets the
/// shared gauges from its app (`places_indexed`: 2 places in one, none in the other) before it reads the database and
/// emits them all; run at once, one test's render could emit the gauge the other's had just set.
@Suite("GET /metrics", .serialized)
struct MetricsEndpointTests {
    /// swift-metrics has one backend per process: the first use points it at this registry.
    static let metrics: PlacesMetrics = {
        let metrics = PlacesMetrics(databaseSize: { 4_096 })
        MetricsSystem.bootstrap(metrics.factory)
        return metrics
    }()

    /// Samples of Prometheus's text format (version 0.0.4): `name{label="value",…} number` per line, after
    /// `# HELP` and `# TYPE` comments; anything else fails the parse.
    static func samples(_ text: String) throws -> [String: Double] {
        var samples: [String: Double] = [:]
        let sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (\S+)$/
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let match = try #require(try sample.wholeMatch(in: String(line)), "not a sample: \(line)")
            let value = try #require(Double(match.output.3), "not a number: \(line)")
            samples[String(match.output.1) + String(match.output.2 ?? "")] = value
        }
        return samples
    }

    @Test func requestsAreCountedByRouteMethodAndStatusBesideTheGauges() async throws {
        let app = try await TestApp.togetherServices([TestApp.place("gem-1", 10, 10), TestApp.place("gem-2", 10, 10.01)], metrics: Self.metrics).app
        try await app.test(.router) { client in
            for _ in 0..<3 { _ = try await client.json(.get, "/v1/places/nearby?lat=10&lon=10&radius=1") }
            _ = try await client.json(.get, "/v1/places/missing")
            let response = try await client.json(.get, "/metrics")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let samples = try Self.samples(String(buffer: response.body))
            #expect(samples["places_indexed"] == 2)
            #expect(samples["places_database_bytes"] == 4_096)
            #expect(samples["places_decisions_active"] == 0)
            let nearby = #"{route="/v1/places/nearby",method="GET",status="200"}"#
            #expect((samples["http_requests_total" + nearby] ?? 0) >= 3)
            #expect((samples["http_request_duration_seconds_count" + nearby] ?? 0) >= 3)
            #expect((samples[#"http_requests_total{route="/v1/places/{id}",method="GET",status="404"}"#] ?? 0) >= 1)
        }
    }

    @Test func answersInMemoryAndPhotosStreamedAreBothCountedWithTheirBodiesWhole() async throws {
        let app = try await TestApp.togetherServices([TestApp.place("gem-1", 10, 10)], metrics: Self.metrics).app
        try await app.test(.router) { client in
            let ana = try await client.signUp("mana")
            let jpeg = TestImages.jpeg()
            let added = try await PhotoEndpointTests.upload(client, "/v1/places/gem-1/photos", token: ana, bytes: jpeg, contentType: "image/jpeg")
            let url = try #require(try TestApp.object(added.body)["url"] as? String)
            // Recorded when the handler answers: the body is handed on whole, with its length.
            let nearby = try await client.json(.get, "/v1/places/nearby?lat=10&lon=10&radius=1")
            #expect(nearby.headers[.contentLength] == String(nearby.body.readableBytes))
            #expect(try TestApp.object(nearby.body)["count"] as? Int == 1)
            // Recorded once the last chunk is written.
            let served = try await client.execute(uri: url, method: .get) { $0 }
            #expect(served.status == .ok && served.body.readableBytes > 0)
            let samples = try Self.samples(String(buffer: try await client.json(.get, "/metrics").body))
            let photo = #"{route="/v1/photos/{id}",method="GET",status="200"}"#
            #expect((samples["http_requests_total" + photo] ?? 0) >= 1)
            #expect((samples["http_request_duration_seconds_count" + photo] ?? 0) >= 1)
            let created = #"{route="/v1/places/{id}/photos",method="POST",status="201"}"#
            #expect((samples["http_requests_total" + created] ?? 0) >= 1)
        }
    }

    @Test func howFarBehindTheDatabaseTheIndexIsIsShown() async throws {
        // Gauges of its own: other tests render the shared ones at the same time.
        let (app, database, places, _) = try await TestApp.togetherServices([TestApp.place("gem-1", 10, 10)], metrics: PlacesMetrics())
        try await app.test(.router) { client in
            var samples = try Self.samples(String(buffer: try await client.json(.get, "/metrics").body))
            #expect(samples["places_index_changes_behind"] == 0 && samples["places_index_behind_seconds"] == 0)
            // Written behind the index's back, as another instance (or the CLI) would.
            try await database.places.seed([TestApp.place("gem-2", 10, 10.01), TestApp.place("gem-3", 10, 10.02)])
            samples = try Self.samples(String(buffer: try await client.json(.get, "/metrics").body))
            #expect(samples["places_index_changes_behind"] == 2)
            #expect((samples["places_index_behind_seconds"] ?? -1) >= 0)
            try await places.syncIndex()
            samples = try Self.samples(String(buffer: try await client.json(.get, "/metrics").body))
            #expect(samples["places_index_changes_behind"] == 0 && samples["places_index_behind_seconds"] == 0)
        }
    }

    @Test func serverErrorsAreCountedAsErrorsAndClientErrorsAreNot() async throws {
        let hasher = try RecordingHasher()
        let hashing = HashingQueue(policy: .init(concurrent: 1, waiting: 0, retryAfterSeconds: 1))
        let app = try await TestApp.togetherServices([], hasher: hasher, hashing: hashing, metrics: Self.metrics).app
        try await app.test(.router) { client in
            _ = try await client.signUp("busy")
            hasher.hold()
            // One login holds the only hashing slot; the next is refused at once with 503, an error of the server's.
            let held = Task { try await client.json(.post, "/v1/auth/login", body: ["username": "busy", "password": "held one"]).status }
            for _ in 0..<10_000 where hashing.load != (1, 0) { try await Task.sleep(for: .milliseconds(1)) }
            let refused = try await client.json(.post, "/v1/auth/login", body: ["username": "busy", "password": "refused"])
            #expect(refused.status == .serviceUnavailable)
            hasher.release()
            #expect(try await held.value == .unauthorized)
            _ = try await client.json(.get, "/v1/places/no-such-place")
            // Refused before the error middleware (RevisionMiddleware runs outside it), and still the client's error: sent
            // here, not left to RevisionEndpointTests, which sends one too and ran before this scrape only by chance.
            let badHeader = try await client.json(.get, "/health", headers: [HTTPFields.Element.Name("Places-Min-Revision")!: "soon"])
            #expect(badHeader.status == .badRequest)
            let samples = try Self.samples(String(buffer: try await client.json(.get, "/metrics").body))
            #expect((samples[#"http_request_errors_total{route="/v1/auth/login",method="POST",status="503"}"#] ?? 0) >= 1)
            #expect((samples[#"places_unavailable_total{cause="hashing_busy"}"#] ?? 0) >= 1)
            // Hummingbird makes an error series for every route and status it answers; a client's errors stay at 0.
            let clientErrors = samples.filter { $0.key.hasPrefix("http_request_errors_total") && $0.key.contains(#"status="4"#) }
            #expect(clientErrors[#"http_request_errors_total{route="/v1/places/{id}",method="GET",status="404"}"#] == 0)
            #expect(clientErrors[#"http_request_errors_total{route="/health",method="GET",status="400"}"#] == 0)
            #expect(clientErrors.values.allSatisfy { $0 == 0 })
        }
    }
}
