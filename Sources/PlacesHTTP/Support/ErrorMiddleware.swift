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
            return try ErrorMiddleware.translate(error).response(from: request, context: context)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            let failure = PlacesError(.internalError, "the server failed to answer; the failure was logged")
            return try failure.response(from: request, context: context)
        }
    }

    static func translate(_ error: any HTTPResponseError) -> PlacesError {
        let message = (error as? HTTPError)?.body
        switch error.status {
        case .notFound: return PlacesError(.notFound, message ?? "no such route")
        case .methodNotAllowed: return PlacesError(PlacesError.Code(rawValue: "method_not_allowed"), message ?? "method not allowed here")
        case .contentTooLarge: return PlacesError(.payloadTooLarge, "the request body is larger than 1 MiB")
        case .unauthorized: return PlacesError(.unauthorized, message ?? "sign in first")
        case .forbidden: return PlacesError(.forbidden, message ?? "not allowed")
        case .badRequest, .unsupportedMediaType, .unprocessableContent:
            return PlacesError(.invalidInput, message ?? "the request is malformed")
        default:
            if (400..<500).contains(error.status.code) {
                return PlacesError(.invalidInput, message ?? error.status.reasonPhrase)
            }
            return PlacesError(.internalError, "the server failed to answer")
        }
    }
}
