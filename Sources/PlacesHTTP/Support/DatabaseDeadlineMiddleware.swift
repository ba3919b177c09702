import Hummingbird
import PlacesCore

/// Gives each request's database work one deadline (`DatabaseDeadline`), however many accesses it makes: a database
/// that stopped answering turns into a quick 503 with `Retry-After` rather than a request held for the sum of each
/// access's own bound. Event streams (planned) will run without it. It also gives the request its
/// `RequestWrites`: one that committed a change before a later step failed `unavailable` is answered `outcome_unknown`
/// instead (by `ErrorMiddleware`).
struct DatabaseDeadlineMiddleware<Context: RequestContext>: RouterMiddleware {
    /// How long one request's database work may take.
    let limit: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await RequestWrites.$current.withValue(RequestWrites()) {
            try await DatabaseDeadline.within(limit) { try await next(request, context) }
        }
    }
}
