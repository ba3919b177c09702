import Hummingbird
import PlacesCore

/// Sends `HEAD` answers without their body, as HTTP asks; `readOnly` routes answer HEAD with their GET handler.
struct HeadMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if request.method == .head { response.body = ResponseBody() }
        return response
    }
}

extension RouterMethods {
    /// Registers `handler` for GET and HEAD on `path`.
    @discardableResult
    func readOnly(
        _ path: RouterPath,
        use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator
    ) -> Self {
        get(path, use: handler)
        return head(path, use: handler)
    }
}

/// Answers any method but GET and HEAD on a read-only route with 405 and `Allow: GET, HEAD`, instead of the 404
/// that would claim the route does not exist. It catches the router's "no route" for those paths, so it covers every
/// method, standard or not (POST, DELETE, TRACE, QUERY, …), with one rule.
struct ReadOnlyRoutesMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Path patterns (`v1/places/{id}`); a `{…}` segment matches any one segment.
    let patterns: [[Substring]]

    init(paths: [String]) {
        patterns = paths.map { $0.split(separator: "/") }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard request.method != .get, request.method != .head, matches(request.uri.path) else { throw error }
            let refusal = PlacesError(.methodNotAllowed, "\(request.method.rawValue) is not allowed here; use GET or HEAD")
            var response = try refusal.response(status: .methodNotAllowed)
            response.headers[.allow] = "GET, HEAD"
            return response
        }
    }

    private func matches(_ path: String) -> Bool {
        let segments = path.split(separator: "/")
        return patterns.contains { pattern in
            pattern.count == segments.count
                && zip(pattern, segments).allSatisfy { expected, actual in expected.hasPrefix("{") || expected == actual }
        }
    }
}
