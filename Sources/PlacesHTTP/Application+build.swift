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

    /// Makes settings.
    public init(host: String = "127.0.0.1", port: Int = 8080, trustedProxies: Set<String> = []) {
        self.host = host
        self.port = port
        self.trustedProxies = trustedProxies
    }
}

/// The services a server answers from.
public struct PlacesServices: Sendable {
    /// Places, nearby queries, search, favourites and ratings.
    public var places: PlaceService
    /// Accounts, sessions and settings.
    public var accounts: AccountService

    /// Makes the set.
    public init(places: PlaceService, accounts: AccountService) {
        self.places = places
        self.accounts = accounts
    }
}

/// Builds the HTTP application: the router over the services, plus the background services (index sync).
public func buildApplication(
    settings: ServerSettings,
    services: PlacesServices,
    background: [any Service] = [],
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    Application(
        router: buildRouter(services: services, trustedProxies: settings.trustedProxies),
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
]

/// The routes of the API, behind the error, method and authentication middleware.
public func buildRouter(services: PlacesServices, trustedProxies: Set<String> = []) -> Router<PlacesRequestContext> {
    let router = Router(context: PlacesRequestContext.self)
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: HeadMiddleware())
    router.add(middleware: MethodsMiddleware(routes: routeMethods))
    router.add(middleware: AuthMiddleware(accounts: services.accounts, trustedProxies: trustedProxies))
    router.readOnly("health") { _, _ in
        try JSONResponse.make(Health(status: "ok", places: services.places.indexedCount))
    }
    router.readOnly("openapi.yaml", use: OpenAPIDocument.serve)
    let v1 = router.group("v1")
    AccountController(accounts: services.accounts, places: services.places).addRoutes(to: v1)
    PlaceController(service: services.places, accounts: services.accounts).addRoutes(to: v1.group("places"))
    return router
}

/// Builds the application and runs it until SIGTERM or SIGINT, then shuts down gracefully.
public func runServer(
    settings: ServerSettings,
    services: PlacesServices,
    background: [any Service] = [],
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws {
    let app = buildApplication(
        settings: settings,
        services: services,
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
