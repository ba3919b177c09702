import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import PlacesCore
import ServiceLifecycle

/// Where the server listens.
public struct ServerSettings: Sendable {
    /// Host name or address to bind.
    public var host: String
    /// TCP port (0 picks a free one).
    public var port: Int
    /// Addresses of reverse proxies trusted to say who the client is in `X-Forwarded-For` (none by default).
    public var trustedProxies: Set<String>
    /// Origins of browser apps allowed to call the API (`*` for any; none by default).
    public var corsOrigins: Set<String>
    /// The page's background of raster tiles (none by default: a graticule).
    public var mapTiles: MapTiles?
    /// How long a connection may sit idle (between requests, or with a request stalled) before it is closed.
    public var idleTimeout: Duration
    /// How long one request's database work may take before it is answered 503 (`DatabaseDeadline`).
    public var requestDeadline: Duration
    /// How long `GET /ready` may take before it answers 503: a balancer's health check must not hang.
    public var readyWithin: Duration

    /// Makes settings.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        trustedProxies: Set<String> = [],
        corsOrigins: Set<String> = [],
        mapTiles: MapTiles? = nil,
        idleTimeout: Duration = .seconds(30),
        requestDeadline: Duration = .seconds(3),
        readyWithin: Duration = .seconds(1)
    ) {
        self.host = host
        self.port = port
        self.trustedProxies = trustedProxies
        self.corsOrigins = corsOrigins
        self.mapTiles = mapTiles
        self.idleTimeout = idleTimeout
        self.requestDeadline = requestDeadline
        self.readyWithin = readyWithin
    }
}

/// Builds the HTTP application: the router over the services, plus the background services: `background`, the live
/// streams, and the change feed's subscribers (the live streams' reader, and `feedSubscribers`, such as the index's
/// sync), each of which the feed has read.
public func buildApplication(
    settings: ServerSettings,
    services: PlacesServices,
    metrics: PlacesMetrics = PlacesMetrics(),
    background: [any Service] = [],
    feedSubscribers: [any FeedSubscriber] = [],
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    Application(
        router: buildRouter(
            services: services,
            trustedProxies: settings.trustedProxies,
            corsOrigins: settings.corsOrigins,
            mapTiles: settings.mapTiles,
            metrics: metrics,
            requestDeadline: settings.requestDeadline,
            readyWithin: settings.readyWithin
        ),
        server: HTTPServerBuilder { responder in
            OnItsEventLoop(
                connection: HTTP1Channel(
                    responder: responder,
                    configuration: .init(
                        additionalChannelHandlers: [OversizedHeadAnswer()],
                        idleTimeout: .nanoseconds(Int64(settings.idleTimeout.components.seconds) * 1_000_000_000),
                        // Limits well above what a client of this API sends, far below the framework's 80 KiB; the request
                        // line counts as a field, so targets of 8-16 KiB reach RequestLimitsMiddleware and get a clear
                        // 414, and longer ones get the same from OversizedHeadAnswer.
                        httpDecoderConfiguration: RequestHeadLimits.decoder
                    )
                )
            )
        },
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "places"),
        // The live streams and their reader of the feed run wherever the routes that need them do.
        services: background + [
            BackgroundTask("live streams") { await services.live.feed.run() },
            BackgroundTask("change feed") {
                await services.feed.follow([services.live.feed] + feedSubscribers) { message, error in
                    logger.warning("\(message)", metadata: ["error": "\(error)"])
                }
            },
        ],
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? settings.port) },
        logger: logger
    )
}

/// The routes of the API, behind the security headers, logging, metrics, CORS, error, limits, method and authentication
/// middleware.
public func buildRouter(
    services: PlacesServices,
    trustedProxies: Set<String> = [],
    corsOrigins: Set<String> = [],
    mapTiles: MapTiles? = nil,
    metrics: PlacesMetrics = PlacesMetrics(),
    requestDeadline: Duration = .seconds(3),
    readyWithin: Duration = .seconds(1)
) -> Router<PlacesRequestContext> {
    let routes = Route.all(services: services, metrics: metrics, readyWithin: readyWithin, mapTiles: mapTiles)
    let router = Router(context: PlacesRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: RequestMetricsMiddleware())
    router.add(middleware: CORSMiddleware(origins: corsOrigins))
    router.add(middleware: DatabaseDeadlineMiddleware(limit: requestDeadline))
    router.add(middleware: RevisionMiddleware(places: services.places))
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: RequestLimitsMiddleware())
    router.add(middleware: HeadMiddleware())
    router.add(middleware: MethodsMiddleware(routes: Route.methods(of: routes)))
    router.add(middleware: AuthMiddleware(accounts: services.accounts, trustedProxies: trustedProxies))
    for route in routes {
        if route.method == .get {
            router.readOnly(RouterPath(route.path), use: route.handler)
        } else {
            router.on(RouterPath(route.path), method: route.method, use: route.handler)
        }
    }
    return router
}

/// Hummingbird's request metrics, for every request but the live streams': a stream lasts as long as its client
/// stays, so its duration would swamp the histogram of request durations and hold the active-requests gauge up. Streams
/// have a gauge and a counter of their own (`PlacesMetrics`).
///
/// Hummingbird records a request once its body is written, by wrapping the body in a closure. That costs an answer
/// whose body is bytes in memory (every answer but a photo's) its one write to the socket: the head then goes in a
/// write of its own before the body (two system calls and two packets for a nearby answer). Such an answer's metrics
/// are recorded when the handler answers instead, which is when its bytes are ready; only a photo's bytes, streamed a
/// chunk at a time from the database, are still measured until the last chunk is written.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics = MetricsMiddleware<Context>()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if EventStreamController.isStream(path) { return try await next(request, context) }
        if PhotoController.streamsBytes(method: request.method, path: path) {
            return try await metrics.handle(request, context: context, next: next)
        }
        var answered = ResponseBody()
        var response = try await metrics.handle(request, context: context) { request, context in
            var response = try await next(request, context)
            answered = response.body
            response.body = ResponseBody()
            return response
        }
        // Writing the empty body the metrics wrapped runs what they do once it is written: recorded now.
        try await response.body.write(DiscardingBodyWriter())
        response.body = answered
        return response
    }

    /// Takes a body's bytes and drops them.
    struct DiscardingBodyWriter: ResponseBodyWriter {
        mutating func write(_ buffer: ByteBuffer) async throws {}
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}

/// Runs `app` (from `buildApplication`) until SIGTERM or SIGINT, then shuts down gracefully.
public func runServer(_ app: some ApplicationProtocol) async throws {
    try await app.runService()
}
