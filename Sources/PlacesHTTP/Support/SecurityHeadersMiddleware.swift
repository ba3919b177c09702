import Hummingbird

/// Adds the headers that keep answers from being misread or kept: `X-Content-Type-Options: nosniff` on every
/// answer, and `Cache-Control: no-store` on the answers that may hold a token or a person's own data.
///
/// Those are the answers of `POST /v1/auth/login` and `/v1/auth/register`, of every request that sent
/// `Authorization`, and every 401 (one without a token included, so that no cache keeps the refusal of a route that
/// answers a signed-in caller). Whether the token was valid is known only inside `AuthMiddleware`; an answer to a request that
/// carried credentials is private either way (RFC 9111, 3.5), so the header is the rule. The middleware sits outside
/// `ErrorMiddleware`, so errors, 404s and 405s get the headers too.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        if request.headers[.authorization] != nil || response.status == .unauthorized || AuthMiddleware.isCredentialRoute(request.uri.path) {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}
