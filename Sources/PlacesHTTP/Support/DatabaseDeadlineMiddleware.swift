import Hummingbird
import PlacesCore

/// Gives each request's database work one deadline (`DatabaseDeadline`), however many accesses it makes: a database
/// that stopped answering turns into a quick 503 with `Retry-After` rather than a request held for the sum of each
/// access's own bound. Event streams (planned) leave it with `DatabaseDeadline.exempt`.
struct DatabaseDeadlineMiddleware<Context: RequestContext>: RouterMiddleware {
    /// How long one request's database work may take.
    let limit: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await DatabaseDeadline.within(limit) { try await next(request, context) }
    }
}
