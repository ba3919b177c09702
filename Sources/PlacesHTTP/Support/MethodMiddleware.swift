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

extension Router {
    /// Answers the methods a read-only route does not take with 405 and `Allow: GET, HEAD`, instead of a 404
    /// that would claim the route does not exist.
    func refuseOtherMethods(on paths: [RouterPath]) {
        for path in paths {
            for method in [HTTPRequest.Method.post, .put, .patch, .delete, .options] {
                on(path, method: method) { request, _ in
                    let error = PlacesError(.methodNotAllowed, "\(request.method.rawValue) is not allowed here; use GET or HEAD")
                    var response = try error.response(status: .methodNotAllowed)
                    response.headers[.allow] = "GET, HEAD"
                    return response
                }
            }
        }
    }
}
