import Foundation
import Hummingbird
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
    /// How long a connection may sit idle (between requests, or with a request stalled) before it is closed.
    public var idleTimeout: Duration

    /// Makes settings.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        trustedProxies: Set<String> = [],
        corsOrigins: Set<String> = [],
        idleTimeout: Duration = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.trustedProxies = trustedProxies
        self.corsOrigins = corsOrigins
        self.idleTimeout = idleTimeout
    }
}

/// Builds the HTTP application: the router over the services, plus the background services (index sync).
public func buildApplication(
    settings: ServerSettings,
    services: PlacesServices,
    metrics: PlacesMetrics = PlacesMetrics(),
    background: [any Service] = [],
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    Application(
        router: buildRouter(services: services, trustedProxies: settings.trustedProxies, corsOrigins: settings.corsOrigins, metrics: metrics),
        server: .http1(
            configuration: .init(
                idleTimeout: .nanoseconds(Int64(settings.idleTimeout.components.seconds) * 1_000_000_000),
                // Limits well above what a client of this API sends, far below the framework's 80 KiB; the request line counts
                // as a field, so targets of 8-16 KiB reach RequestLimitsMiddleware and get a clear 414.
                httpDecoderConfiguration: .init(maxHeaderFieldSize: 16_384, maxHeaderListSize: 32_768, maxHeaderFieldCount: 100)
            )
        ),
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "places"),
        services: background,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? settings.port) },
        logger: logger
    )
}

/// Every route and the methods it answers; a request with another method gets 405 and `Allow`.
let routeMethods: [(path: String, methods: [HTTPRequest.Method])] = [
    ("health", [.get, .head]),
    ("openapi.yaml", [.get, .head]),
    ("metrics", [.get, .head]),
    ("v1/auth/register", [.post]),
    ("v1/auth/login", [.post]),
    ("v1/auth/logout", [.post]),
    ("v1/me", [.get, .head, .patch, .delete]),
    ("v1/me/password", [.post]),
    ("v1/me/export", [.get, .head]),
    ("v1/me/settings", [.get, .head, .put, .patch]),
    ("v1/me/favorites", [.get, .head]),
    ("v1/users/search", [.get, .head]),
    ("v1/places", [.post]),
    ("v1/places/nearby", [.get, .head]),
    ("v1/places/search", [.get, .head]),
    ("v1/places/{id}", [.get, .head, .patch, .delete]),
    ("v1/places/{id}/restore", [.post]),
    ("v1/places/{id}/favorite", [.put, .delete]),
    ("v1/places/{id}/rating", [.put, .delete]),
    ("v1/friends", [.get, .head]),
    ("v1/friends/{username}", [.delete]),
    ("v1/friends/requests", [.get, .head, .post]),
    ("v1/friends/requests/{username}/accept", [.post]),
    ("v1/friends/requests/{username}/decline", [.post]),
    ("v1/groups", [.get, .head, .post]),
    ("v1/groups/{id}", [.get, .head, .patch, .delete]),
    ("v1/groups/{id}/invitations", [.post]),
    ("v1/groups/{id}/leave", [.post]),
    ("v1/groups/{id}/members/{username}", [.delete]),
    ("v1/groups/{id}/members/{username}/role", [.put]),
    ("v1/me/invitations", [.get, .head]),
    ("v1/me/invitations/{id}/accept", [.post]),
    ("v1/me/invitations/{id}/decline", [.post]),
    ("v1/collections", [.get, .head, .post]),
    ("v1/collections/{id}", [.get, .head, .patch, .delete]),
    ("v1/collections/{id}/places", [.post]),
    ("v1/collections/{id}/places/{placeId}", [.delete]),
    ("v1/collections/{id}/order", [.put]),
    ("v1/decisions", [.get, .head, .post]),
    ("v1/decisions/{id}", [.get, .head]),
    ("v1/decisions/{id}/ballot", [.put]),
    ("v1/decisions/{id}/close", [.post]),
    ("v1/decisions/{id}/cancel", [.post]),
    ("v1/decisions/{id}/pick", [.post]),
    ("v1/decisions/{id}/recount", [.get, .head]),
    ("v1/notifications", [.get, .head]),
    ("v1/notifications/read-all", [.post]),
    ("v1/notifications/{id}/read", [.post]),
]

/// The routes of the API, behind the security headers, logging, metrics, CORS, error, limits, method and authentication
/// middleware.
public func buildRouter(
    services: PlacesServices,
    trustedProxies: Set<String> = [],
    corsOrigins: Set<String> = [],
    metrics: PlacesMetrics = PlacesMetrics()
) -> Router<PlacesRequestContext> {
    let router = Router(context: PlacesRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: CORSMiddleware(origins: corsOrigins))
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: RequestLimitsMiddleware())
    router.add(middleware: HeadMiddleware())
    router.add(middleware: MethodsMiddleware(routes: routeMethods))
    router.add(middleware: AuthMiddleware(accounts: services.accounts, trustedProxies: trustedProxies))
    router.readOnly("health") { _, _ in
        try JSONResponse.make(Health(status: "ok", places: services.places.indexedCount))
    }
    router.readOnly("openapi.yaml", use: OpenAPIDocument.serve)
    router.readOnly("metrics") { _, _ in try await metrics.render(services: services) }
    let v1 = router.group("v1")
    AccountController(accounts: services.accounts, places: services.places).addRoutes(to: v1)
    PlaceController(service: services.places, accounts: services.accounts).addRoutes(to: v1.group("places"))
    GroupController(groups: services.groups).addRoutes(to: v1)
    CollectionController(collections: services.collections).addRoutes(to: v1)
    DecisionController(decisions: services.decisions).addRoutes(to: v1)
    NotificationController(notifications: services.notifications).addRoutes(to: v1)
    return router
}

/// Builds the application and runs it until SIGTERM or SIGINT, then shuts down gracefully.
public func runServer(
    settings: ServerSettings,
    services: PlacesServices,
    metrics: PlacesMetrics = PlacesMetrics(),
    background: [any Service] = [],
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws {
    let app = buildApplication(
        settings: settings,
        services: services,
        metrics: metrics,
        background: background,
        logger: logger,
        onServerRunning: onServerRunning
    )
    try await app.runService()
}

/// `GET /health`'s answer.
struct Health: Encodable {
    var status: String
    var places: Int
}
