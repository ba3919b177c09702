import Hummingbird
import PlacesCore

/// Read-your-writes behind a load balancer, where a client's next request may reach another instance.
///
/// Every answer carries `Places-Revision`: the change-feed position this instance's index has applied up to (every
/// change at or below it). After a place write it is one that includes the write: the write is in this instance's
/// index already, though other transactions still open when it committed may hold the feed's horizon below it. A request that sends `Places-Min-Revision: N` (the revision of a write it
/// made) first waits, up to 200 ms, until this instance has applied N, then is answered as the instance can, with
/// `Places-Revision-Reached: true` or `false` saying whether it got there.
struct RevisionMiddleware<Context: RequestContext>: RouterMiddleware {
    static var revisionHeader: HTTPFields.Element.Name { HTTPFields.Element.Name("Places-Revision")! }
    static var minimumHeader: HTTPFields.Element.Name { HTTPFields.Element.Name("Places-Min-Revision")! }
    static var reachedHeader: HTTPFields.Element.Name { HTTPFields.Element.Name("Places-Revision-Reached")! }

    let places: PlaceService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var reached: Bool?
        if let text = request.headers[Self.minimumHeader] {
            guard let minimum = Int64(text), minimum >= 0 else {
                // Answered here, not thrown: this middleware runs outside the error middleware, so a thrown error passed
                // the request metrics on its way out, and Hummingbird's counted it in `http_request_errors_total`, which
                // counts the server's own failures only (and the answer missed the security headers).
                let error = PlacesError.invalid("Places-Min-Revision", "Places-Min-Revision must be a whole number, the Places-Revision of an answer")
                return try error.response(from: request, context: context)
            }
            reached = await places.catchUp(to: minimum)
        }
        var response = try await next(request, context)
        response.headers[Self.revisionHeader] = String(max(places.indexRevision, RequestWrites.current?.writePosition ?? 0))
        if let reached { response.headers[Self.reachedHeader] = reached ? "true" : "false" }
        return response
    }
}
