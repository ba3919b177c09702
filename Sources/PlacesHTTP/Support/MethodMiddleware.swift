import Hummingbird
import PlacesCore

/// Sends `HEAD` answers without their body, as HTTP asks, but with the `Content-Length` that GET would send (RFC 9110,
/// 9.3.2: the same header fields); `readOnly` routes answer HEAD with their GET handler.
struct HeadMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if request.method == .head {
            // Replacing the body sets the length of the empty one; the answer keeps its own.
            let length = response.headers[.contentLength]
            response.body = ResponseBody()
            if let length { response.headers[.contentLength] = length }
        }
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

/// Answers a method a route does not take with 405 and `Allow`, instead of the 404 that would claim the route does
/// not exist. It catches the router's "no route" and looks the path up in the route table, so it covers every
/// method, standard or not (TRACE, QUERY, …), with one rule.
struct MethodsMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Path patterns (`v1/places/{id}`, a `{…}` segment matching any one segment) and their methods.
    let routes: [(pattern: [Substring], methods: [HTTPRequest.Method])]

    init(routes: [(path: String, methods: [HTTPRequest.Method])]) {
        self.routes = routes.map { ($0.path.split(separator: "/"), $0.methods) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let methods = methods(for: request.uri.path), !methods.contains(request.method) else { throw error }
            let allow = methods.map(\.rawValue).joined(separator: ", ")
            let refusal = PlacesError(.methodNotAllowed, "\(request.method.rawValue) is not allowed here; use \(allow)")
            var response = try refusal.response(status: .methodNotAllowed)
            response.headers[.allow] = allow
            return response
        }
    }

    /// The methods of the route `path` names; a literal segment wins over a `{…}` one, as in the router.
    private func methods(for path: String) -> [HTTPRequest.Method]? {
        let segments = path.split(separator: "/")
        var best: (literals: Int, methods: [HTTPRequest.Method])?
        for route in routes where route.pattern.count == segments.count {
            var literals = 0
            let matches = zip(route.pattern, segments).allSatisfy { expected, actual in
                if expected.hasPrefix("{") { return true }
                literals += 1
                return expected == actual
            }
            if matches, literals > (best?.literals ?? -1) { best = (literals, route.methods) }
        }
        return best?.methods
    }
}
