import Hummingbird
import PlacesCore

/// `/v1/friends`, `/v1/groups` and `/v1/me/invitations`: friend requests, groups, invitations and membership.
struct GroupController: Sendable {
    let groups: GroupService

    func addRoutes(to v1: RouterGroup<PlacesRequestContext>) {
        v1.readOnly("friends", use: friends)
        v1.delete("friends/{username}", use: unfriend)
        v1.readOnly("friends/requests", use: friendRequests)
        v1.post("friends/requests", use: requestFriend)
        v1.post("friends/requests/{username}/accept", use: acceptFriend)
        v1.post("friends/requests/{username}/decline", use: declineFriend)

        v1.post("groups", use: createGroup)
        v1.readOnly("groups", use: listGroups)
        v1.readOnly("groups/{id}", use: group)
        v1.patch("groups/{id}", use: updateGroup)
        v1.delete("groups/{id}", use: deleteGroup)
        v1.post("groups/{id}/invitations", use: invite)
        v1.post("groups/{id}/leave", use: leave)
        v1.delete("groups/{id}/members/{username}", use: removeMember)
        v1.put("groups/{id}/members/{username}/role", use: setRole)
        v1.readOnly("me/invitations", use: invitations)
        v1.post("me/invitations/{id}/accept", use: acceptInvitation)
        v1.post("me/invitations/{id}/decline", use: declineInvitation)
    }

    // MARK: Friends

    /// `GET /v1/friends`
    @Sendable func friends(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONResponse.make(try await groups.friends(caller.user, page: try PageRequest(request)))
    }

    /// `GET /v1/friends/requests?direction=incoming|sent`
    @Sendable func friendRequests(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let parameters = try QueryParameters(request.uri.query)
        let incoming: Bool
        switch parameters["direction"] ?? "incoming" {
        case "incoming": incoming = true
        case "sent": incoming = false
        default: throw PlacesError.invalid("direction", "direction must be incoming or sent")
        }
        return try JSONResponse.make(try await groups.friendRequests(caller.user, incoming: incoming, page: try PageRequest(parameters)))
    }

    /// `POST /v1/friends/requests {username}` → 201 pending, or 200 friends when they had asked first.
    @Sendable func requestFriend(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: ["username"])
        guard let username = try TextRules.text(try body.rawText("username"), field: "username", limit: 40) else { throw PlacesError.invalid("username", "username is required") }
        let status = try await groups.requestFriend(caller.user, username: username)
        return try JSONResponse.make(status, status: status.status == .pending ? .created : .ok)
    }

    /// `POST /v1/friends/requests/{username}/accept`
    @Sendable func acceptFriend(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONResponse.make(try await groups.acceptFriend(caller.user, username: try context.pathText("username")))
    }

    /// `POST /v1/friends/requests/{username}/decline` → 204.
    @Sendable func declineFriend(request: Request, context: PlacesRequestContext) async throws -> Response {
        try await groups.declineFriend(try context.requireCaller().user, username: try context.pathText("username"))
        return Response(status: .noContent)
    }

    /// `DELETE /v1/friends/{username}` → 204: unfriends, or withdraws a request either way.
    @Sendable func unfriend(request: Request, context: PlacesRequestContext) async throws -> Response {
        try await groups.unfriend(try context.requireCaller().user, username: try context.pathText("username"))
        return Response(status: .noContent)
    }

    // MARK: Groups

    /// `POST /v1/groups` → 201; the caller is its admin.
    @Sendable func createGroup(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: NewGroup.fields)
        let group = try await groups.createGroup(caller.user, try NewGroup(body: body))
        var response = try JSONResponse.make(group, status: .created)
        response.headers[.location] = "/v1/groups/\(group.id)"
        return response
    }

    /// `GET /v1/groups`: the caller's groups.
    @Sendable func listGroups(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONResponse.make(try await groups.groups(caller.user, page: try PageRequest(request)))
    }

    /// `GET /v1/groups/{id}` (members).
    @Sendable func group(request: Request, context: PlacesRequestContext) async throws -> Response {
        try JSONResponse.make(try await groups.group(try context.requireCaller().user, id: try context.pathText("id")))
    }

    /// `PATCH /v1/groups/{id}` (admins).
    @Sendable func updateGroup(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: NewGroup.fields)
        return try JSONResponse.make(try await groups.updateGroup(caller.user, id: try context.pathText("id"), try GroupPatch(body: body)))
    }

    /// `DELETE /v1/groups/{id}` (admins) → 204.
    @Sendable func deleteGroup(request: Request, context: PlacesRequestContext) async throws -> Response {
        try await groups.deleteGroup(try context.requireCaller().user, id: try context.pathText("id"))
        return Response(status: .noContent)
    }

    /// `POST /v1/groups/{id}/invitations {username}` (admins) → 201.
    @Sendable func invite(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: ["username"])
        guard let username = try TextRules.text(try body.rawText("username"), field: "username", limit: 40) else { throw PlacesError.invalid("username", "username is required") }
        let invitation = try await groups.invite(caller.user, groupID: try context.pathText("id"), username: username)
        return try JSONResponse.make(invitation, status: .created)
    }

    /// `POST /v1/groups/{id}/leave {successor?}` → 204.
    @Sendable func leave(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.optionalObject(request, context: context, allowed: ["successor"])
        try await groups.leave(caller.user, groupID: try context.pathText("id"), successor: try TextRules.text(try body?.rawText("successor"), field: "successor", limit: 40))
        return Response(status: .noContent)
    }

    /// `DELETE /v1/groups/{id}/members/{username}` (admins) → 204.
    @Sendable func removeMember(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        try await groups.removeMember(caller.user, groupID: try context.pathText("id"), username: try context.pathText("username"))
        return Response(status: .noContent)
    }

    /// `PUT /v1/groups/{id}/members/{username}/role {role}` (admins): promote or demote.
    @Sendable func setRole(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
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

    /// `GET /v1/me/invitations`
    @Sendable func invitations(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        return try JSONResponse.make(try await groups.invitations(caller.user, page: try PageRequest(request)))
    }

    /// `POST /v1/me/invitations/{id}/accept` → the group joined.
    @Sendable func acceptInvitation(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let group = try await groups.answerInvitation(caller.user, groupID: try context.pathText("id"), accept: true)
        return try JSONResponse.make(group)
    }

    /// `POST /v1/me/invitations/{id}/decline` → 204.
    @Sendable func declineInvitation(request: Request, context: PlacesRequestContext) async throws -> Response {
        try await groups.answerInvitation(try context.requireCaller().user, groupID: try context.pathText("id"), accept: false)
        return Response(status: .noContent)
    }
}

