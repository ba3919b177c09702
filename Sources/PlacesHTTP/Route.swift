import Hummingbird
import PlacesCore

/// One route of the API: a method, a path (`{name}` is a path parameter), and the handler that answers it. A GET
/// route answers HEAD too, with its GET handler (`HeadMiddleware` drops the body).
struct Route: Sendable {
    /// What answers a request.
    typealias Handler = @Sendable (Request, PlacesRequestContext) async throws -> Response
    /// What answers a signed-in caller's request.
    typealias SignedInHandler = @Sendable (Request, PlacesRequestContext, Caller) async throws -> Response

    let method: HTTPRequest.Method
    let path: String
    let handler: Handler

    /// A route that anybody may call.
    init(_ method: HTTPRequest.Method, _ path: String, use handler: @escaping Handler) {
        self.method = method
        self.path = path
        self.handler = handler
    }

    /// A route for the signed-in caller only (401 before anything else is read).
    init(_ method: HTTPRequest.Method, _ path: String, signedIn handler: @escaping SignedInHandler) {
        self.init(method, path) { request, context in
            try await handler(request, context, try context.requireCaller())
        }
    }

    /// A route that answers the signed-in caller with `answer` for them and the path's parameter, as JSON.
    init<Answer: Encodable & Sendable>(_ method: HTTPRequest.Method, _ path: String, answer: @escaping @Sendable (User, String) async throws -> Answer) {
        let parameter = Route.parameter(of: path)
        self.init(method, path) { _, context in
            try JSONResponse.make(try await answer(try context.requireCaller().user, try context.pathText(parameter)))
        }
    }

    /// A route that does `act` for the signed-in caller and the path's parameter, and answers 204.
    init(_ method: HTTPRequest.Method, _ path: String, act: @escaping @Sendable (User, String) async throws -> Void) {
        let parameter = Route.parameter(of: path)
        self.init(method, path) { _, context in
            try await act(try context.requireCaller().user, try context.pathText(parameter))
            return Response(status: .noContent)
        }
    }

    /// A route that answers the signed-in caller with the page of `list` the request's `limit` and `cursor` ask for.
    init<Item: Encodable & Sendable>(
        _ method: HTTPRequest.Method,
        _ path: String,
        list: @escaping @Sendable (User, PageRequest) async throws -> Page<Item>
    ) {
        self.init(method, path) { request, context in
            let caller = try context.requireCaller()
            return try JSONResponse.make(try await list(caller.user, try PageRequest(request)))
        }
    }

    /// A route that creates what the body asks for, as the signed-in caller: 201 with it, and `Location` at its id
    /// below the route's path.
    init<Command: RequestCommand, Created: CreatedResource>(
        _ method: HTTPRequest.Method,
        _ path: String,
        create: @escaping @Sendable (User, Command) async throws -> Created
    ) {
        self.init(method, path) { request, context in
            let caller = try context.requireCaller()
            let created = try await create(caller.user, try await Command(request, context: context))
            return try JSONResponse.created(created, at: "/\(path)/\(created.id)")
        }
    }

    /// A route that changes what the path's parameter names as the body asks, as the signed-in caller, and answers
    /// with the result as JSON.
    init<Command: RequestCommand, Answer: Encodable & Sendable>(
        _ method: HTTPRequest.Method,
        _ path: String,
        change: @escaping @Sendable (User, String, Command) async throws -> Answer
    ) {
        let parameter = Route.parameter(of: path)
        self.init(method, path) { request, context in
            let caller = try context.requireCaller()
            let command = try await Command(request, context: context)
            return try JSONResponse.make(try await change(caller.user, try context.pathText(parameter), command))
        }
    }

    /// The name of the last `{…}` segment of `path`.
    private static func parameter(of path: String) -> String {
        String(path.split(separator: "/").last { $0.hasPrefix("{") }?.dropFirst().dropLast() ?? "")
    }

    /// Every route of the API, over the services: the one list the router is built from and the 405 answers are
    /// read from. A path's methods come in the order its `Allow` header names them.
    static func all(services: PlacesServices, metrics: PlacesMetrics) -> [Route] {
        let accounts = AccountController(accounts: services.accounts, places: services.places)
        let places = PlaceController(service: services.places, accounts: services.accounts)
        let groups = GroupController(groups: services.groups)
        let collections = CollectionController(collections: services.collections)
        let decisions = DecisionController(decisions: services.decisions)
        let notifications = NotificationController(notifications: services.notifications)
        let health: @Sendable (Request, PlacesRequestContext) async throws -> Response = { _, _ in
            try JSONResponse.make(Health(status: "ok", places: services.places.indexedCount))
        }
        let renderMetrics: @Sendable (Request, PlacesRequestContext) async throws -> Response = { _, _ in
            try await metrics.render(services: services)
        }
        return [
        Route(.get, "health", use: health),
        Route(.get, "openapi.yaml", use: OpenAPIDocument.serve),
        Route(.get, "metrics", use: renderMetrics),
        Route(.post, "v1/auth/register", use: accounts.register),
        Route(.post, "v1/auth/login", use: accounts.login),
        Route(.post, "v1/auth/logout", signedIn: accounts.logout),
        Route(.get, "v1/me", signedIn: accounts.me),
        Route(.patch, "v1/me", signedIn: accounts.updateMe),
        Route(.delete, "v1/me", signedIn: accounts.deleteMe),
        Route(.post, "v1/me/password", signedIn: accounts.changePassword),
        Route(.get, "v1/me/export", signedIn: accounts.export),
        Route(.get, "v1/me/settings", signedIn: accounts.settings),
        Route(.put, "v1/me/settings", signedIn: accounts.replaceSettings),
        Route(.patch, "v1/me/settings", signedIn: accounts.updateSettings),
        Route(.get, "v1/me/favorites", signedIn: accounts.favorites),
        Route(.get, "v1/users/search", signedIn: accounts.searchUsers),
        Route(.post, "v1/places", signedIn: places.create),
        Route(.get, "v1/places/nearby", use: places.nearby),
        Route(.get, "v1/places/search", use: places.search),
        Route(.get, "v1/places/{id}", use: places.place),
        Route(.patch, "v1/places/{id}", signedIn: places.update),
        Route(.delete, "v1/places/{id}", signedIn: places.delete),
        Route(.post, "v1/places/{id}/restore", signedIn: places.restore),
        Route(.put, "v1/places/{id}/favorite", signedIn: places.favorite),
        Route(.delete, "v1/places/{id}/favorite", signedIn: places.unfavorite),
        Route(.put, "v1/places/{id}/rating", signedIn: places.rate),
        Route(.delete, "v1/places/{id}/rating", signedIn: places.unrate),
        Route(.get, "v1/friends", list: services.groups.friends),
        Route(.delete, "v1/friends/{username}", act: services.groups.unfriend),
        Route(.get, "v1/friends/requests", signedIn: groups.friendRequests),
        Route(.post, "v1/friends/requests", signedIn: groups.requestFriend),
        Route(.post, "v1/friends/requests/{username}/accept", answer: services.groups.acceptFriend),
        Route(.post, "v1/friends/requests/{username}/decline", act: services.groups.declineFriend),
        Route(.get, "v1/groups", list: services.groups.groups),
        Route(.post, "v1/groups", create: services.groups.createGroup),
        Route(.get, "v1/groups/{id}", answer: services.groups.group),
        Route(.patch, "v1/groups/{id}", change: services.groups.updateGroup),
        Route(.delete, "v1/groups/{id}", act: services.groups.deleteGroup),
        Route(.post, "v1/groups/{id}/invitations", signedIn: groups.invite),
        Route(.post, "v1/groups/{id}/leave", signedIn: groups.leave),
        Route(.delete, "v1/groups/{id}/members/{username}", signedIn: groups.removeMember),
        Route(.put, "v1/groups/{id}/members/{username}/role", signedIn: groups.setRole),
        Route(.get, "v1/me/invitations", list: services.groups.invitations),
        Route(.post, "v1/me/invitations/{id}/accept", signedIn: groups.acceptInvitation),
        Route(.post, "v1/me/invitations/{id}/decline", signedIn: groups.declineInvitation),
        Route(.get, "v1/collections", list: services.collections.list),
        Route(.post, "v1/collections", create: services.collections.create),
        Route(.get, "v1/collections/{id}", signedIn: collections.detail),
        Route(.patch, "v1/collections/{id}", change: services.collections.update),
        Route(.delete, "v1/collections/{id}", act: services.collections.delete),
        Route(.post, "v1/collections/{id}/places", change: services.collections.add),
        Route(.delete, "v1/collections/{id}/places/{placeId}", signedIn: collections.remove),
        Route(.put, "v1/collections/{id}/order", signedIn: collections.reorder),
        Route(.get, "v1/decisions", list: services.decisions.list),
        Route(.post, "v1/decisions", create: services.decisions.create),
        Route(.get, "v1/decisions/{id}", answer: services.decisions.view),
        Route(.put, "v1/decisions/{id}/ballot", change: services.decisions.vote),
        Route(.post, "v1/decisions/{id}/close", answer: services.decisions.close),
        Route(.post, "v1/decisions/{id}/cancel", answer: services.decisions.cancel),
        Route(.post, "v1/decisions/{id}/pick", signedIn: decisions.pick),
        Route(.get, "v1/decisions/{id}/recount", answer: services.decisions.recount),
        Route(.get, "v1/notifications", signedIn: notifications.list),
        Route(.post, "v1/notifications/read-all", signedIn: notifications.readAll),
        Route(.post, "v1/notifications/{id}/read", use: notifications.read),
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

/// `GET /health`'s answer.
struct Health: Encodable {
    var status: String
    var places: Int
}
