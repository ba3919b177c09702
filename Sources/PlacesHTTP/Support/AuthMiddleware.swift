import Hummingbird
import PlacesCore

/// Reads `Authorization: Bearer <token>` (401 at once when the header is not in that form), and works out the client's
/// address for the login throttle. The token's session is read only when a handler asks for the caller
/// (`PlacesRequestContext.caller()`): a route that answers everyone, or a nearby that names its centre and radius,
/// answers with the database's accounts unread, as it does without a token.
///
/// Logging in and signing up ignore `Authorization`: a client that always sends its saved token must still be
/// able to get a new one once that token expired or was revoked.
struct AuthMiddleware: RouterMiddleware {
    let accounts: AccountService
    let trustedProxies: Set<String>

    /// The routes that hand out credentials and never read the caller: `POST /v1/auth/login` and `/v1/auth/register`.
    static let credentialRoutes: [[Substring]] = [["v1", "auth", "login"], ["v1", "auth", "register"]]

    /// Whether `path` is one of `credentialRoutes` (empty segments ignored, as the router ignores them).
    static func isCredentialRoute(_ path: String) -> Bool {
        credentialRoutes.contains(path.split(separator: "/"))
    }

    func handle(
        _ request: Request,
        context: PlacesRequestContext,
        next: (Request, PlacesRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.clientAddress = ClientAddress.resolve(
            peer: context.peerAddress,
            forwardedFor: request.headers.first { $0.name.canonicalName == "x-forwarded-for" }?.value,
            trustedProxies: trustedProxies
        )
        if let header = request.headers[.authorization], !Self.isCredentialRoute(request.uri.path) {
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else {
                throw PlacesError.unauthorized("the Authorization header must be 'Bearer <token>'")
            }
            let token = parts[1].trimmingCharacters(in: .whitespaces)
            guard !token.isEmpty, token.utf8.count <= 200 else { throw PlacesError.unauthorized("the bearer token is malformed") }
            context.bearer = BearerToken(token: token, accounts: accounts)
        }
        return try await next(request, context)
    }
}
