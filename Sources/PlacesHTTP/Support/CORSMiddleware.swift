import Hummingbird
import PlacesCore

/// Lets browser apps served from the configured origins call the API; with no origins configured (the default)
/// it adds nothing and a preflight is refused like any other OPTIONS request (405).
///
/// A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) from an allowed origin is answered
/// 204 with the methods and headers the API uses; other requests from it get `Access-Control-Allow-Origin` and
/// the response headers a client may read. Tokens travel in `Authorization`, never in cookies, so credentials
/// are not enabled. With origins configured, every answer says `Vary: Origin`, those without the headers too: a cache
/// that kept an answer to a request without `Origin` (a phone, curl) must not give it to a browser app, which would
/// refuse it for want of them.
struct CORSMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Exact origins (`https://app.example.com`), or `*` for any.
    let origins: Set<String>

    static var methods: String { "GET, HEAD, POST, PUT, PATCH, DELETE" }
    static var requestHeaders: String { "Authorization, Content-Type, Accept, X-Request-ID, Places-Min-Revision, Last-Event-ID" }
    static var exposedHeaders: String { "X-Request-ID, Retry-After, Location, Allow, WWW-Authenticate, Places-Revision, Places-Revision-Reached" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !origins.isEmpty else { return try await next(request, context) }
        guard let origin = request.headers[.origin], let allowed = allowed(origin) else {
            var response = try await next(request, context)
            Self.varyByOrigin(&response)
            return response
        }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            var response = Response(status: .noContent)
            response.headers[.accessControlAllowOrigin] = allowed
            response.headers[.accessControlAllowMethods] = Self.methods
            response.headers[.accessControlAllowHeaders] = Self.requestHeaders
            response.headers[.accessControlMaxAge] = "600"
            response.headers[.vary] = "Origin"
            return response
        }
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = allowed
        response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        Self.varyByOrigin(&response)
        return response
    }

    /// Adds `Origin` to what the answer already varies by (nearby varies by Accept), never in its place.
    private static func varyByOrigin(_ response: inout Response) {
        response.headers[.vary] = response.headers[.vary].map { "\($0), Origin" } ?? "Origin"
    }

    /// What `Access-Control-Allow-Origin` says to `origin`, nil when it is not allowed.
    private func allowed(_ origin: String) -> String? {
        if origins.contains("*") { return "*" }
        return origins.contains(origin) ? origin : nil
    }
}
