import Foundation
import Hummingbird
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import PlacesCore

/// Turns every error into the API's error body, so no client ever sees a bare status or a stack of internals.
///
/// `PlacesError` keeps its code; Hummingbird's own errors (no route, wrong method, body too large, bad request)
/// get the matching stable code; a request body that the client broke off is its failure (400, logged at debug);
/// anything else is logged and answered as `internal_error`.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await answer(request, context: context, next: next)
        if response.status.code >= 500 {
            // The server's own failures (an unhandled error, 503 while it is too busy), by route, method and status, as
            // `http_request_errors_total`; a client's bad request is no error of the server's and is not counted here.
            Counter(
                label: "hb.request.errors",
                dimensions: [
                    ("http.route", context.endpointPath ?? "NotFound"), ("http.request.method", request.method.rawValue),
                    ("error.type", String(response.status.code)),
                ]
            ).increment()
        }
        return response
    }

    private func answer(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch var error as PlacesError {
            if error.isDatabaseUnavailable, RequestWrites.current?.hasCommitted == true {
                // Something was committed before the failure: retrying blindly could do it twice.
                let cause = error.cause
                error = .outcomeUnknown
                error.cause = cause
            }
            if let detail = error.detail {
                context.logger.error("the service failed", metadata: ["error": "\(error.code.rawValue): \(error.message)", "detail": "\(detail)"])
            }
            if error.status == .serviceUnavailable {
                // Why the server could not answer: `places_unavailable_total{cause="timeout"}` and the like.
                Counter(label: "places_unavailable", dimensions: [("cause", error.cause?.rawValue ?? error.code.rawValue)]).increment()
            }
            return try error.response(from: request, context: context)
        } catch let error as any HTTPResponseError {
            let (translated, status) = ErrorMiddleware.translate(error)
            return try translated.response(status: status)
        } catch {
            if let refusal = ErrorMiddleware.brokenBody(error) {
                // Most often the client went away mid-body; nothing failed here, so no error is logged or counted as 500.
                context.logger.debug("the client broke off its request", metadata: ["error": "\(String(reflecting: error))"])
                return try refusal.response(status: .badRequest)
            }
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

    /// What the client is told when reading its body failed because of the client: the connection ended or was reset
    /// before the body was complete, or its bytes stopped being HTTP (a chunk size that is no number). Nil for any
    /// other error.
    static func brokenBody(_ error: any Error) -> PlacesError? {
        switch error {
        case HTTPParserError.invalidEOFState:
            PlacesError(.invalidInput, "the request body ended before Content-Length bytes (or the last chunk) arrived")
        case let error as HTTPParserError:
            PlacesError(.invalidInput, "the request is not valid HTTP/1.1: \(error)")
        case let error as IOError where error.errnoCode == ECONNRESET:
            PlacesError(.invalidInput, "the client reset the connection before the request body was complete")
        default:
            nil
        }
    }
}
