import Hummingbird
import Logging
import PlacesCore

/// Turns every error into the API's error body, so no client ever sees a bare status or a stack of internals.
///
/// `PlacesError` keeps its code; Hummingbird's own errors (no route, wrong method, body too large, bad request)
/// get the matching stable code; anything else is logged and answered as `internal_error`.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as PlacesError {
            return try error.response(from: request, context: context)
        } catch let error as any HTTPResponseError {
            let (translated, status) = ErrorMiddleware.translate(error)
            return try translated.response(status: status)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            let failure = PlacesError(.internalError, "the server failed to answer; the failure was logged")
            return try failure.response(from: request, context: context)
        }
    }

    /// Hummingbird's own errors as a `PlacesError` and the status to answer with (a 4xx keeps its own status).
    static func translate(_ error: any HTTPResponseError) -> (PlacesError, HTTPResponse.Status) {
        let message = (error as? HTTPError)?.body
        let status = error.status
        switch status {
        case .notFound: return (PlacesError(.notFound, message ?? "no such route"), status)
        case .methodNotAllowed: return (PlacesError(.methodNotAllowed, message ?? "method not allowed here"), status)
        case .contentTooLarge: return (RequestLimitsMiddleware.bodyTooLarge, status)
        case .unauthorized: return (PlacesError(.unauthorized, message ?? "sign in first"), status)
        case .forbidden: return (PlacesError(.forbidden, message ?? "not allowed"), status)
        default:
            if (400..<500).contains(status.code) {
                return (PlacesError(.invalidInput, message ?? status.reasonPhrase), status)
            }
            return (PlacesError(.internalError, "the server failed to answer"), .internalServerError)
        }
    }
}
