import Hummingbird
import PlacesCore

/// `/v1/notifications`: the caller's notifications, newest first, with the unread count.
struct NotificationController: Sendable {
    let notifications: NotificationService

    /// `GET /v1/notifications?limit=&cursor=`
    @Sendable func list(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let parameters = context.query
        let page = try PageRequest.parse(limit: parameters["limit"], cursor: parameters["cursor"])
        return try JSONResponse.make(try await notifications.list(recipientID: caller.user.id, page: page))
    }

    /// `POST /v1/notifications/{id}/read` → 204.
    @Sendable func read(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try await notifications.markRead(id: try context.pathText("id"), recipientID: caller.user.id)
        return Response(status: .noContent)
    }

    /// `POST /v1/notifications/read-all` → how many were marked.
    @Sendable func readAll(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let marked = try await notifications.markAllRead(recipientID: caller.user.id)
        return try JSONResponse.make(MarkedRead(marked: marked))
    }
}

struct MarkedRead: Encodable {
    var marked: Int
}

extension NotificationController {
    /// The routes of /v1/notifications, in the order their paths' `Allow` headers name their methods.
    var routes: [Route] {
        [
            Route(.get, "v1/notifications", query: .page, signedIn: list),
            Route(.post, "v1/notifications/read-all", signedIn: readAll),
            Route(.post, "v1/notifications/{id}/read", signedIn: read),
        ]
    }
}
