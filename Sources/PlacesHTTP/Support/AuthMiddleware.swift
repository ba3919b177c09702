import Hummingbird
import PlacesCore

/// Signs a request in when it carries `Authorization: Bearer <token>` (401 when that token is not valid), and
/// works out the client's address for the login throttle.
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
            context.caller = try await accounts.authenticate(token: token)
        }
        return try await next(request, context)
    }
}

/// Reading a request's JSON body.
///
/// A body that is not empty must be sent as `Content-Type: application/json` (415 `unsupported_media_type`
/// otherwise): the media types an HTML form may post across sites (`text/plain`,
/// `application/x-www-form-urlencoded`, `multipart/form-data`) never reach a route, whatever their bytes.
enum RequestBody {
    /// The body as a JSON value (413 above the context's upload limit, 415 when not sent as JSON, 400 when it is not JSON).
    static func json(_ request: Request, context: some RequestContext) async throws -> FieldValue {
        try FieldReader.parse(Array(try await bytes(request, context: context).readableBytesView))
    }

    /// The body as a JSON object whose names all belong to `allowed`.
    static func object(_ request: Request, context: some RequestContext, allowed: Set<String>) async throws -> FieldReader {
        try FieldReader(try await json(request, context: context), allowed: allowed)
    }

    /// The body as a JSON object whose names all belong to `allowed`, or nil when the request sent no body (which
    /// then needs no Content-Type).
    static func optionalObject(_ request: Request, context: some RequestContext, allowed: Set<String>) async throws -> FieldReader? {
        let buffer = try await bytes(request, context: context)
        guard buffer.readableBytes > 0 else { return nil }
        return try FieldReader(try FieldReader.parse(Array(buffer.readableBytesView)), allowed: allowed)
    }

    /// The body's bytes, up to the context's upload limit; bytes sent as anything but JSON are refused.
    private static func bytes(_ request: Request, context: some RequestContext) async throws -> ByteBuffer {
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        guard buffer.readableBytes == 0 || isJSON(contentType: request.headers[.contentType]) else {
            throw PlacesError(.unsupportedMediaType, "send the body as JSON, with Content-Type: application/json")
        }
        return buffer
    }

    /// Whether a Content-Type names `application/json`, in any case, with or without parameters (`; charset=utf-8`).
    static func isJSON(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        return mediaType.lowercased() == "application/json"
    }
}
