import Hummingbird
import Logging
import PlacesCore

/// Gives every request an id and writes one access line when it is answered.
///
/// The id is the client's `X-Request-ID` when it is a sane one (1–128 letters, digits, `.`, `_` or `-`), or else a
/// new random one; it rides in the logger's metadata of everything logged for the request and is echoed in the
/// answer's `X-Request-ID`. The access line names method, path (never the query: search words and locations stay
/// out of logs), status and latency.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    static var header: HTTPFields.Element.Name { HTTPFields.Element.Name("X-Request-ID")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let id = request.headers[Self.header].flatMap(Self.accepted) ?? RandomID.make("r-")
        var context = context
        context.logger[metadataKey: "request_id"] = .string(id)
        do {
            var response = try await next(request, context)
            response.headers[Self.header] = id
            log(request, status: response.status.code, since: start, logger: context.logger)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(request, status: status, since: start, logger: context.logger)
            throw error
        }
    }

    /// A client's request id when it is safe to log and echo.
    static func accepted(_ text: String) -> String? {
        guard (1...128).contains(text.utf8.count),
            text.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2E || byte == 0x5F || byte == 0x2D
            })
        else { return nil }
        return text
    }

    private func log(_ request: Request, status: Int, since start: ContinuousClock.Instant, logger: Logger) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info(
            "\(request.method) \(request.uri.path) \(status)",
            metadata: ["status": "\(status)", "latency_ms": "\((milliseconds * 1_000).rounded() / 1_000)"]
        )
    }
}
