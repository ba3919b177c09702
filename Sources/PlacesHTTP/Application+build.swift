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

    /// Makes settings.
    public init(host: String = "127.0.0.1", port: Int = 8080) {
        self.host = host
        self.port = port
    }
}

/// The services a server answers from.
public struct PlacesServices: Sendable {
    /// Places and nearby queries.
    public var places: PlaceService

    /// Makes the set.
    public init(places: PlaceService) {
        self.places = places
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
        router: buildRouter(services: services),
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "places"),
        services: background,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? settings.port) },
        logger: logger
    )
}

/// The routes of the API, behind the error middleware.
public func buildRouter(services: PlacesServices) -> Router<PlacesRequestContext> {
    let router = Router(context: PlacesRequestContext.self)
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: HeadMiddleware())
    router.add(middleware: ReadOnlyRoutesMiddleware(paths: ["health", "openapi.yaml", "v1/places/nearby", "v1/places/{id}"]))
    router.readOnly("health") { _, _ in
        try JSONResponse.make(Health(status: "ok", places: services.places.indexedCount))
    }
    router.readOnly("openapi.yaml", use: OpenAPIDocument.serve)
    PlaceController(service: services.places).addRoutes(to: router.group("v1/places"))
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
