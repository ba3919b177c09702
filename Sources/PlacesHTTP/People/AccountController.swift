import Foundation
import GeoIndex
import Hummingbird
import PlacesCore

/// `/v1/auth`, `/v1/me` and `/v1/users`: sign-up and sessions, the caller's profile, settings, favourites, status
/// and data, and finding and blocking people.
struct AccountController: Sendable {
    let accounts: AccountService
    let places: PlaceService

    /// `POST /v1/auth/register` → 201 with the new account.
    @Sendable func register(request: Request, context: PlacesRequestContext) async throws -> Response {
        let user = try await accounts.register(try await Registration(request, context: context), clientAddress: context.clientAddress)
        return try JSONResponse.make(OwnUser(user), status: .created)
    }

    /// `POST /v1/auth/login` → `{token, expiresAt}`.
    @Sendable func login(request: Request, context: PlacesRequestContext) async throws -> Response {
        try JSONResponse.make(try await accounts.login(try await Credentials(request, context: context), clientAddress: context.clientAddress))
    }

    /// `POST /v1/auth/logout` → 204; the token stops working.
    @Sendable func logout(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try await accounts.logout(caller)
        return Response(status: .noContent)
    }

    /// `GET /v1/me`, with the caller's status while it shows.
    @Sendable func me(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        var own = OwnUser(caller.user)
        own.status = try await accounts.status(caller.user)
        return try JSONResponse.make(own)
    }

    /// `PATCH /v1/me`
    @Sendable func updateMe(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try JSONResponse.make(OwnUser(try await accounts.updateProfile(caller, try await ProfilePatch(request, context: context))))
    }

    /// `DELETE /v1/me {password}` → 204.
    @Sendable func deleteMe(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let body = try await RequestBody.object(request, context: context, allowed: ["password"])
        try await accounts.deleteAccount(caller, password: try body.rawText("password"))
        // Ratings changed the places' aggregates: the index has them before the answer.
        try await places.syncIndex()
        return Response(status: .noContent)
    }

    /// `POST /v1/me/password` → 204; every other session ends.
    @Sendable func changePassword(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try await accounts.changePassword(caller, try await PasswordChange(request, context: context))
        return Response(status: .noContent)
    }

    /// `GET /v1/me/export`
    @Sendable func export(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try JSONResponse.make(try await accounts.export(caller))
    }

    /// `GET /v1/me/settings`
    @Sendable func settings(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try JSONResponse.make(try await accounts.settings(userID: caller.user.id))
    }

    /// `PUT /v1/me/settings`: the fields given, defaults for the rest.
    @Sendable func replaceSettings(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try JSONResponse.make(try await accounts.replaceSettings(userID: caller.user.id, try await SettingsPatch(request, context: context)))
    }

    /// `PATCH /v1/me/settings`: the fields given; the rest stay.
    @Sendable func updateSettings(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try JSONResponse.make(try await accounts.updateSettings(userID: caller.user.id, try await SettingsPatch(request, context: context)))
    }

    /// `GET /v1/me/favorites?lat=&lon=&limit=&cursor=`: nearest first when a location is given.
    @Sendable func favorites(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let parameters = context.query
        let page = try PageRequest.parse(limit: parameters["limit"], cursor: parameters["cursor"])
        var center: Coordinate?
        if parameters["lat"] != nil || parameters["lon"] != nil {
            center = try NearbyQuery.parse(lat: parameters["lat"], lon: parameters["lon"], limit: nil, filter: PlaceFilter()).center
        }
        return try JSONResponse.make(try await places.favorites(user: caller.user, center: center, page: page))
    }

    /// `GET /v1/users/search?q=&limit=&cursor=` (signed in): public fields only.
    @Sendable func searchUsers(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let parameters = context.query
        let page = try PageRequest.parse(limit: parameters["limit"], cursor: parameters["cursor"])
        return try JSONResponse.make(try await accounts.searchUsers(parameters["q"], viewer: caller.user, page: page))
    }

    /// `PUT /v1/me/status {text, expiresAt?}` → the status set.
    @Sendable func setStatus(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try JSONResponse.make(try await accounts.setStatus(caller.user, try await SetStatus(request, context: context)))
    }

    /// `DELETE /v1/me/status` → 204.
    @Sendable func clearStatus(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try await accounts.clearStatus(caller.user)
        return Response(status: .noContent)
    }
}

extension AccountController {
    /// The routes of /v1/auth, /v1/me and /v1/users, in the order their paths' `Allow` headers name their methods.
    var routes: [Route] {
        [
            Route(.post, "v1/auth/register", use: register),
            Route(.post, "v1/auth/login", use: login),
            Route(.post, "v1/auth/logout", signedIn: logout),
            Route(.get, "v1/me", signedIn: me),
            Route(.patch, "v1/me", signedIn: updateMe),
            Route(.delete, "v1/me", signedIn: deleteMe),
            Route(.post, "v1/me/password", signedIn: changePassword),
            Route(.get, "v1/me/export", signedIn: export),
            Route(.get, "v1/me/settings", signedIn: settings),
            Route(.put, "v1/me/settings", signedIn: replaceSettings),
            Route(.patch, "v1/me/settings", signedIn: updateSettings),
            Route(.get, "v1/me/favorites", query: ["lat", "lon", "limit", "cursor"], signedIn: favorites),
            Route(.put, "v1/me/status", signedIn: setStatus),
            Route(.delete, "v1/me/status", signedIn: clearStatus),
            Route(.get, "v1/me/blocked", list: accounts.blocked),
            Route(.get, "v1/users/search", query: ["q", "limit", "cursor"], signedIn: searchUsers),
            Route(.put, "v1/users/{username}/block", act: accounts.block),
            Route(.delete, "v1/users/{username}/block", act: accounts.unblock),
        ]
    }
}
