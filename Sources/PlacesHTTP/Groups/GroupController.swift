import Hummingbird
import PlacesCore

/// The `/v1/friends`, `/v1/groups` and `/v1/me/invitations` handlers that read more than a body or a path
/// (the generic `Route`s of `routes` answer the rest): friend requests, invitations and membership.
struct GroupController: Sendable {
    let groups: GroupService

    /// The `{username}` body of a friend request or an invitation: required, at most 40 characters.
    static func username(_ request: Request, context: PlacesRequestContext) async throws -> String {
        let body = try await RequestBody.object(request, context: context, allowed: ["username"])
        guard let username = try TextRules.text(try body.rawText("username"), field: "username", limit: 40) else {
            throw PlacesError.invalid("username", "username is required")
        }
        return username
    }

    // MARK: Friends

    /// `GET /v1/friends/requests?direction=incoming|sent`
    @Sendable func friendRequests(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let parameters = context.query
        let incoming: Bool
        switch parameters["direction"] ?? "incoming" {
        case "incoming": incoming = true
        case "sent": incoming = false
        default: throw PlacesError.invalid("direction", "direction must be incoming or sent")
        }
        return try JSONResponse.make(try await groups.friendRequests(caller.user, incoming: incoming, page: try PageRequest(parameters)))
    }

    /// `POST /v1/friends/requests {username}` → 201 pending, or 200 friends when they had asked first.
    @Sendable func requestFriend(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let status = try await groups.requestFriend(caller.user, username: try await Self.username(request, context: context))
        return try JSONResponse.make(status, status: status.status == .pending ? .created : .ok)
    }

    // MARK: Groups

    /// `POST /v1/groups/{id}/invitations {username}` (admins) → 201.
    @Sendable func invite(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let username = try await Self.username(request, context: context)
        let invitation = try await groups.invite(caller.user, groupID: try context.pathText("id"), username: username)
        return try JSONResponse.make(invitation, status: .created)
    }

    /// `POST /v1/groups/{id}/alerts {message}` (admins) → 204: every other member who wants alerts is notified.
    @Sendable func alert(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let command = try await SendAlert(request, context: context)
        try await groups.sendAlert(caller.user, groupID: try context.pathText("id"), command)
        return Response(status: .noContent)
    }

    /// `POST /v1/groups/{id}/leave {successor?}` → 204.
    @Sendable func leave(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let body = try await RequestBody.optionalObject(request, context: context, allowed: ["successor"])
        let successor = try TextRules.nonBlankText(
            try body?.rawText("successor"),
            field: "successor",
            limit: 40,
            blank: "successor must be another member's username; leave it out to name nobody"
        )
        try await groups.leave(caller.user, groupID: try context.pathText("id"), successor: successor)
        return Response(status: .noContent)
    }

    /// `DELETE /v1/groups/{id}/members/{username}` (admins) → 204.
    @Sendable func removeMember(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try await groups.removeMember(caller.user, groupID: try context.pathText("id"), username: try context.pathText("username"))
        return Response(status: .noContent)
    }

    /// `PUT /v1/groups/{id}/members/{username}/role {role}` (admins): promote or demote.
    @Sendable func setRole(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let body = try await RequestBody.object(request, context: context, allowed: ["role"])
        guard let text = try TextRules.text(try body.rawText("role"), field: "role", limit: 10), let role = GroupRole(rawValue: text) else {
            throw PlacesError.invalid("role", "role must be admin or member")
        }
        let group = try await groups.setRole(
            caller.user,
            groupID: try context.pathText("id"),
            username: try context.pathText("username"),
            role: role
        )
        return try JSONResponse.make(group)
    }

    /// `POST /v1/me/invitations/{id}/accept` → the group joined.
    @Sendable func acceptInvitation(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let group = try await groups.answerInvitation(caller.user, groupID: try context.pathText("id"), accept: true)
        return try JSONResponse.make(group)
    }

    /// `POST /v1/me/invitations/{id}/decline` → 204.
    @Sendable func declineInvitation(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try await groups.answerInvitation(caller.user, groupID: try context.pathText("id"), accept: false)
        return Response(status: .noContent)
    }
}

extension GroupController {
    /// The routes of /v1/friends, /v1/groups and /v1/me/invitations, in the order their paths' `Allow` headers name their methods.
    var routes: [Route] {
        [
            Route(.get, "v1/friends", list: groups.friends),
            Route(.delete, "v1/friends/{username}", act: groups.unfriend),
            Route(.get, "v1/friends/requests", query: ["direction", "limit", "cursor"], signedIn: friendRequests),
            Route(.post, "v1/friends/requests", signedIn: requestFriend),
            Route(.post, "v1/friends/requests/{username}/accept", answer: groups.acceptFriend),
            Route(.post, "v1/friends/requests/{username}/decline", act: groups.declineFriend),
            Route(.get, "v1/groups", list: groups.groups),
            Route(.post, "v1/groups", create: groups.createGroup),
            Route(.get, "v1/groups/{id}", answer: groups.group),
            Route(.patch, "v1/groups/{id}", change: groups.updateGroup),
            Route(.delete, "v1/groups/{id}", act: groups.deleteGroup),
            Route(.post, "v1/groups/{id}/alerts", signedIn: alert),
            Route(.post, "v1/groups/{id}/invitations", signedIn: invite),
            Route(.post, "v1/groups/{id}/leave", signedIn: leave),
            Route(.delete, "v1/groups/{id}/members/{username}", signedIn: removeMember),
            Route(.put, "v1/groups/{id}/members/{username}/role", signedIn: setRole),
            Route(.get, "v1/me/invitations", list: groups.invitations),
            Route(.post, "v1/me/invitations/{id}/accept", signedIn: acceptInvitation),
            Route(.post, "v1/me/invitations/{id}/decline", signedIn: declineInvitation),
        ]
    }
}
