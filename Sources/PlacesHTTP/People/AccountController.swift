import Foundation
import GeoIndex
import Hummingbird
import PlacesCore

/// `/v1/auth`, `/v1/me` and `/v1/users`: sign-up and sessions, the caller's profile, settings, favourites and
/// data, and finding people.
struct AccountController: Sendable {
    let accounts: AccountService
    let places: PlaceService

    func addRoutes(to v1: RouterGroup<PlacesRequestContext>) {
        v1.post("auth/register", use: register)
        v1.post("auth/login", use: login)
        v1.post("auth/logout", use: logout)
        v1.readOnly("me", use: me)
        v1.patch("me", use: updateMe)
        v1.delete("me", use: deleteMe)
        v1.post("me/password", use: changePassword)
        v1.readOnly("me/export", use: export)
        v1.readOnly("me/settings", use: settings)
        v1.put("me/settings", use: replaceSettings)
        v1.patch("me/settings", use: updateSettings)
        v1.readOnly("me/favorites", use: favorites)
        v1.readOnly("users/search", use: searchUsers)
    }

    /// `POST /v1/auth/register` → 201 with the new account.
    @Sendable func register(request: Request, context: PlacesRequestContext) async throws -> Response {
        let body = try await RequestBody.object(request, context: context, allowed: Registration.fields)
        let user = try await accounts.register(try Registration(body: body), clientAddress: context.clientAddress)
        return try JSONResponse.make(OwnUser(user), status: .created)
    }

    /// `POST /v1/auth/login` → `{token, expiresAt}`.
    @Sendable func login(request: Request, context: PlacesRequestContext) async throws -> Response {
        let body = try await RequestBody.object(request, context: context, allowed: Credentials.fields)
        return try JSONResponse.make(try await accounts.login(try Credentials(body: body), clientAddress: context.clientAddress))
    }

    /// `POST /v1/auth/logout` → 204; the token stops working.
    @Sendable func logout(request: Request, context: PlacesRequestContext) async throws -> Response {
        try await accounts.logout(try context.requireCaller())
        return Response(status: .noContent)
    }

    /// `GET /v1/me`
    @Sendable func me(request: Request, context: PlacesRequestContext) async throws -> Response {
        try JSONResponse.make(OwnUser(try context.requireCaller().user))
    }

    /// `PATCH /v1/me`
    @Sendable func updateMe(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: ProfilePatch.fields)
        return try JSONResponse.make(OwnUser(try await accounts.updateProfile(caller, try ProfilePatch(body: body))))
    }

    /// `DELETE /v1/me {password}` → 204.
    @Sendable func deleteMe(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: ["password"])
        try await accounts.deleteAccount(caller, password: try body.rawText("password"))
        // Ratings changed the places' aggregates: the index has them before the answer.
        try await places.syncIndex()
        return Response(status: .noContent)
    }

    /// `POST /v1/me/password` → 204; every other session ends.
    @Sendable func changePassword(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: PasswordChange.fields)
        try await accounts.changePassword(caller, try PasswordChange(body: body))
        return Response(status: .noContent)
    }

    /// `GET /v1/me/export`
    @Sendable func export(request: Request, context: PlacesRequestContext) async throws -> Response {
        try JSONResponse.make(try await accounts.export(try context.requireCaller()))
    }

    /// `GET /v1/me/settings`
    @Sendable func settings(request: Request, context: PlacesRequestContext) async throws -> Response {
        try JSONResponse.make(try await accounts.settings(userID: try context.requireCaller().user.id))
    }

    /// `PUT /v1/me/settings`: the fields given, defaults for the rest.
    @Sendable func replaceSettings(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: SettingsPatch.fields)
        return try JSONResponse.make(try await accounts.replaceSettings(userID: caller.user.id, try SettingsPatch(body: body)))
    }

    /// `PATCH /v1/me/settings`: the fields given; the rest stay.
    @Sendable func updateSettings(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await RequestBody.object(request, context: context, allowed: SettingsPatch.fields)
        return try JSONResponse.make(try await accounts.updateSettings(userID: caller.user.id, try SettingsPatch(body: body)))
    }

    /// `GET /v1/me/favorites?lat=&lon=&limit=&cursor=`: nearest first when a location is given.
    @Sendable func favorites(request: Request, context: PlacesRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let parameters = try QueryParameters(request.uri.query)
        let page = try PageRequest.parse(limit: parameters["limit"], cursor: parameters["cursor"])
        var center: Coordinate?
        if parameters["lat"] != nil || parameters["lon"] != nil {
            center = try NearbyQuery.parse(lat: parameters["lat"], lon: parameters["lon"], limit: nil, filter: PlaceFilter()).center
        }
        return try JSONResponse.make(try await places.favorites(user: caller.user, center: center, page: page))
    }

    /// `GET /v1/users/search?q=&limit=&cursor=` (signed in): public fields only.
    @Sendable func searchUsers(request: Request, context: PlacesRequestContext) async throws -> Response {
        _ = try context.requireCaller()
        let parameters = try QueryParameters(request.uri.query)
        let page = try PageRequest.parse(limit: parameters["limit"], cursor: parameters["cursor"])
        return try JSONResponse.make(try await accounts.searchUsers(parameters["q"], page: page))
    }
}
