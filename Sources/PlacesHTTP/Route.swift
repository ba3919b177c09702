import Hummingbird
import PlacesCore

/// One route of the API: a method, a path (`{name}` is a path parameter), the query parameters it reads, and the
/// handler that answers it. A GET route answers HEAD too, with its GET handler (`HeadMiddleware` drops the body).
///
/// The query string is read before the handler runs (after the caller, for a signed-in route: 401 comes first), with
/// the names the route declares; any other name is refused with 400 naming it, and the handler reads
/// `context.query`. A route that declares none refuses every query parameter.
struct Route: Sendable {
    /// What answers a request.
    typealias Handler = @Sendable (Request, PlacesRequestContext) async throws -> Response
    /// What answers a signed-in caller's request.
    typealias SignedInHandler = @Sendable (Request, PlacesRequestContext, Caller) async throws -> Response

    let method: HTTPRequest.Method
    let path: String
    /// The query parameters the route reads.
    let query: QueryParameters.Names
    let handler: Handler

    /// A route whose handler runs with `context.query` read as `query` declares, after the caller when `signedIn`.
    private init(_ method: HTTPRequest.Method, _ path: String, query: QueryParameters.Names, signedIn: Bool, handler: @escaping Handler) {
        self.method = method
        self.path = path
        self.query = query
        self.handler = { request, context in
            var context = context
            if signedIn { context.resolvedCaller = try await context.requireCaller() }
            context.query = try QueryParameters(request.uri.query, accepting: query)
            return try await handler(request, context)
        }
    }

    /// A route that anybody may call.
    init(_ method: HTTPRequest.Method, _ path: String, query: QueryParameters.Names = [], use handler: @escaping Handler) {
        self.init(method, path, query: query, signedIn: false, handler: handler)
    }

    /// A route for the signed-in caller only (401 before anything else is read).
    init(_ method: HTTPRequest.Method, _ path: String, query: QueryParameters.Names = [], signedIn handler: @escaping SignedInHandler) {
        self.init(method, path, query: query, signedIn: true) { request, context in
            try await handler(request, context, try await context.requireCaller())
        }
    }

    /// A route that answers the signed-in caller with `answer` for them and the path's parameter, as JSON.
    init<Answer: Encodable & Sendable>(
        _ method: HTTPRequest.Method,
        _ path: String,
        answer: @escaping @Sendable (User, String) async throws -> Answer
    ) {
        let parameter = Route.parameter(of: path)
        let handler: SignedInHandler = { _, context, caller in
            try JSONResponse.make(try await answer(caller.user, try context.pathText(parameter)))
        }
        self.init(method, path, signedIn: handler)
    }

    /// A route that does `act` for the signed-in caller and the path's parameter, and answers 204.
    init(_ method: HTTPRequest.Method, _ path: String, act: @escaping @Sendable (User, String) async throws -> Void) {
        let parameter = Route.parameter(of: path)
        let handler: SignedInHandler = { _, context, caller in
            try await act(caller.user, try context.pathText(parameter))
            return Response(status: .noContent)
        }
        self.init(method, path, signedIn: handler)
    }

    /// A route that answers the signed-in caller with the page of `list` the request's `limit` and `cursor` ask for.
    init<Item: Encodable & Sendable>(
        _ method: HTTPRequest.Method,
        _ path: String,
        list: @escaping @Sendable (User, PageRequest) async throws -> Page<Item>
    ) {
        let handler: SignedInHandler = { _, context, caller in
            try JSONResponse.make(try await list(caller.user, try PageRequest(context.query)))
        }
        self.init(method, path, query: .page, signedIn: handler)
    }

    /// A route that creates what the body asks for, as the signed-in caller: 201 with it, and `Location` at its id
    /// below the route's path.
    init<Command: RequestCommand, Created: CreatedResource>(
        _ method: HTTPRequest.Method,
        _ path: String,
        create: @escaping @Sendable (User, Command) async throws -> Created
    ) {
        let handler: SignedInHandler = { request, context, caller in
            let created = try await create(caller.user, try await Command(request, context: context))
            return try JSONResponse.created(created, at: "/\(path)/\(created.id)")
        }
        self.init(method, path, signedIn: handler)
    }

    /// A route that changes what the path's parameter names as the body asks, as the signed-in caller, and answers
    /// with the result as JSON.
    init<Command: RequestCommand, Answer: Encodable & Sendable>(
        _ method: HTTPRequest.Method,
        _ path: String,
        change: @escaping @Sendable (User, String, Command) async throws -> Answer
    ) {
        let parameter = Route.parameter(of: path)
        let handler: SignedInHandler = { request, context, caller in
            let command = try await Command(request, context: context)
            return try JSONResponse.make(try await change(caller.user, try context.pathText(parameter), command))
        }
        self.init(method, path, signedIn: handler)
    }

    /// The name of the last `{…}` segment of `path`.
    private static func parameter(of path: String) -> String {
        String(path.split(separator: "/").last { $0.hasPrefix("{") }?.dropFirst().dropLast() ?? "")
    }

    /// Every route of the API, over the services: the one list the router is built from and the 405 answers are
    /// read from. Each controller declares its own routes, beside the handlers that serve them; a path's methods come
    /// in the order its `Allow` header names them.
    static func all(
        services: PlacesServices,
        metrics: PlacesMetrics,
        readyWithin: Duration = .seconds(1),
        mapTiles: MapTiles? = nil
    ) -> [Route] {
        OperationsController(services: services, metrics: metrics, readyWithin: readyWithin).routes
            + AccountController(accounts: services.accounts, places: services.places).routes
            + PlaceController(service: services.places, accounts: services.accounts, photos: services.photos).routes
            + PhotoController(photos: services.photos, chunkDeadline: .seconds(3)).routes
            + GroupController(groups: services.groups).routes
            + CollectionController(collections: services.collections).routes
            + DecisionController(decisions: services.decisions).routes
            + ConversationController(conversations: services.conversations).routes
            + NotificationController(notifications: services.notifications).routes
            + EventStreamController(live: services.live).routes
            + WebController(tiles: mapTiles).routes
    }

    /// Each path of `routes` and the methods it answers (HEAD with GET), in the order they come.
    static func methods(of routes: [Route]) -> [(path: String, methods: [HTTPRequest.Method])] {
        var paths: [(path: String, methods: [HTTPRequest.Method])] = []
        for route in routes {
            let methods: [HTTPRequest.Method] = route.method == .get ? [.get, .head] : [route.method]
            if let index = paths.firstIndex(where: { $0.path == route.path }) {
                paths[index].methods += methods
            } else {
                paths.append((route.path, methods))
            }
        }
        return paths
    }
}

/// What a create route answers: it has the id its address ends with.
protocol CreatedResource: Encodable, Sendable {
    /// The id, the last segment of its address.
    var id: String { get }
}

extension PlaceCollection: CreatedResource {}
extension DecisionView: CreatedResource {}
extension Group: CreatedResource {}
