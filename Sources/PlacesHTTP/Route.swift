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
            if signedIn { _ = try context.requireCaller() }
            var context = context
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
            try await handler(request, context, try context.requireCaller())
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
    /// read from. A path's methods come in the order its `Allow` header names them.
    static func all(services: PlacesServices, metrics: PlacesMetrics, readyWithin: Duration = .seconds(1)) -> [Route] {
        let accountHandlers = AccountController(accounts: services.accounts, places: services.places)
        let placeHandlers = PlaceController(service: services.places, accounts: services.accounts)
        let groupHandlers = GroupController(groups: services.groups)
        let collectionHandlers = CollectionController(collections: services.collections)
        let decisionHandlers = DecisionController(decisions: services.decisions)
        let notificationHandlers = NotificationController(notifications: services.notifications)
        let streamHandlers = EventStreamController(live: services.live)
        let groups = services.groups
        let collections = services.collections
        let decisions = services.decisions
        let health: @Sendable (Request, PlacesRequestContext) async throws -> Response = { _, _ in
            try JSONResponse.make(Health(status: "ok", places: services.places.indexedCount))
        }
        // Readiness, for a load balancer: 200 only when the database answers and the index has applied every change
        // committed so far; 503 `unavailable` (with Retry-After) otherwise, within a second whatever the database
        // does, since a balancer's health check must not hang. /health stays a liveness check.
        let ready: @Sendable (Request, PlacesRequestContext) async throws -> Response = { _, _ in
            let answer = try await withTimeLimit(readyWithin) {
                try await DatabaseDeadline.within(readyWithin * 0.8) { try await services.places.readiness() }
            }
            guard let revision = answer else {
                throw PlacesError(.unavailable, "not ready: the database or the index did not answer within \(readyWithin)", cause: .notReady)
            }
            return try JSONResponse.make(Readiness(status: "ready", places: services.places.indexedCount, revision: revision))
        }
        let renderMetrics: @Sendable (Request, PlacesRequestContext) async throws -> Response = { _, _ in
            try await metrics.render(services: services)
        }
        return [
            Route(.get, "health", use: health),
            Route(.get, "ready", use: ready),
            Route(.get, "openapi.yaml", use: OpenAPIDocument.serve),
            Route(.get, "metrics", use: renderMetrics),
            Route(.post, "v1/auth/register", use: accountHandlers.register),
            Route(.post, "v1/auth/login", use: accountHandlers.login),
            Route(.post, "v1/auth/logout", signedIn: accountHandlers.logout),
            Route(.get, "v1/me", signedIn: accountHandlers.me),
            Route(.patch, "v1/me", signedIn: accountHandlers.updateMe),
            Route(.delete, "v1/me", signedIn: accountHandlers.deleteMe),
            Route(.post, "v1/me/password", signedIn: accountHandlers.changePassword),
            Route(.get, "v1/me/export", signedIn: accountHandlers.export),
            Route(.get, "v1/me/settings", signedIn: accountHandlers.settings),
            Route(.put, "v1/me/settings", signedIn: accountHandlers.replaceSettings),
            Route(.patch, "v1/me/settings", signedIn: accountHandlers.updateSettings),
            Route(.get, "v1/me/favorites", query: ["lat", "lon", "limit", "cursor"], signedIn: accountHandlers.favorites),
            Route(.get, "v1/users/search", query: ["q", "limit", "cursor"], signedIn: accountHandlers.searchUsers),
            Route(.post, "v1/places", signedIn: placeHandlers.create),
            Route(.get, "v1/places/nearby", query: PlaceController.nearbyQuery, use: placeHandlers.nearby),
            Route(.get, "v1/places/within", query: PlaceController.viewportQuery, use: placeHandlers.within),
            Route(.get, "v1/places/clusters", query: PlaceController.clusterQuery, use: placeHandlers.clusters),
            Route(.get, "v1/places/search", query: ["q", "lat", "lon", "radius", "limit", "cursor"], use: placeHandlers.search),
            Route(.get, "v1/places/{id}", query: ["from"], use: placeHandlers.place),
            Route(.patch, "v1/places/{id}", signedIn: placeHandlers.update),
            Route(.delete, "v1/places/{id}", signedIn: placeHandlers.delete),
            Route(.post, "v1/places/{id}/restore", signedIn: placeHandlers.restore),
            Route(.put, "v1/places/{id}/favorite", signedIn: placeHandlers.favorite),
            Route(.delete, "v1/places/{id}/favorite", signedIn: placeHandlers.unfavorite),
            Route(.put, "v1/places/{id}/rating", signedIn: placeHandlers.rate),
            Route(.delete, "v1/places/{id}/rating", signedIn: placeHandlers.unrate),
            Route(.get, "v1/friends", list: groups.friends),
            Route(.delete, "v1/friends/{username}", act: groups.unfriend),
            Route(.get, "v1/friends/requests", query: ["direction", "limit", "cursor"], signedIn: groupHandlers.friendRequests),
            Route(.post, "v1/friends/requests", signedIn: groupHandlers.requestFriend),
            Route(.post, "v1/friends/requests/{username}/accept", answer: groups.acceptFriend),
            Route(.post, "v1/friends/requests/{username}/decline", act: groups.declineFriend),
            Route(.get, "v1/groups", list: groups.groups),
            Route(.post, "v1/groups", create: groups.createGroup),
            Route(.get, "v1/groups/{id}", answer: groups.group),
            Route(.patch, "v1/groups/{id}", change: groups.updateGroup),
            Route(.delete, "v1/groups/{id}", act: groups.deleteGroup),
            Route(.post, "v1/groups/{id}/invitations", signedIn: groupHandlers.invite),
            Route(.post, "v1/groups/{id}/leave", signedIn: groupHandlers.leave),
            Route(.delete, "v1/groups/{id}/members/{username}", signedIn: groupHandlers.removeMember),
            Route(.put, "v1/groups/{id}/members/{username}/role", signedIn: groupHandlers.setRole),
            Route(.get, "v1/me/invitations", list: groups.invitations),
            Route(.post, "v1/me/invitations/{id}/accept", signedIn: groupHandlers.acceptInvitation),
            Route(.post, "v1/me/invitations/{id}/decline", signedIn: groupHandlers.declineInvitation),
            Route(.get, "v1/collections", list: collections.list),
            Route(.post, "v1/collections", create: collections.create),
            Route(.get, "v1/collections/{id}", query: ["lat", "lon"], signedIn: collectionHandlers.detail),
            Route(.patch, "v1/collections/{id}", change: collections.update),
            Route(.delete, "v1/collections/{id}", act: collections.delete),
            Route(.post, "v1/collections/{id}/places", change: collections.add),
            Route(.delete, "v1/collections/{id}/places/{placeId}", signedIn: collectionHandlers.remove),
            Route(.put, "v1/collections/{id}/order", signedIn: collectionHandlers.reorder),
            Route(.get, "v1/decisions", list: decisions.list),
            Route(.post, "v1/decisions", create: decisions.create),
            Route(.get, "v1/decisions/{id}", answer: decisions.view),
            Route(.put, "v1/decisions/{id}/ballot", change: decisions.vote),
            Route(.post, "v1/decisions/{id}/close", answer: decisions.close),
            Route(.post, "v1/decisions/{id}/cancel", answer: decisions.cancel),
            Route(.post, "v1/decisions/{id}/pick", signedIn: decisionHandlers.pick),
            Route(.get, "v1/decisions/{id}/recount", answer: decisions.recount),
            Route(.get, "v1/decisions/{id}/events", signedIn: streamHandlers.decisionEvents),
            Route(.get, "v1/notifications", query: .page, signedIn: notificationHandlers.list),
            Route(.get, "v1/notifications/events", signedIn: streamHandlers.notificationEvents),
            Route(.post, "v1/notifications/read-all", signedIn: notificationHandlers.readAll),
            Route(.post, "v1/notifications/{id}/read", signedIn: notificationHandlers.read),
        ]
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

/// `GET /ready`'s answer.
struct Readiness: Encodable {
    var status: String
    var places: Int
    var revision: Int64
}

/// `GET /health`'s answer.
struct Health: Encodable {
    var status: String
    var places: Int
}
