import Hummingbird
import PlacesCore

/// Refuses what the server will not read before any route parses it: a request target (path and query) longer
/// than it reads (414), and a body larger than the route's limit (413): 1 MiB, and 5 MiB (`PhotoFile.maxBytes`) for the
/// two photo uploads (`POST /v1/places/{id}/photos`, `PUT /v1/me/picture`).
///
/// A body whose `Content-Length` is above the limit is refused at once, unread. Any 413, that one or a chunked body
/// that grew past the limit while a route read it, closes the connection once the answer is written: the rest of
/// the body is never read, where Hummingbird would otherwise read and drop it before the next request, or wait for
/// it until the idle timeout when the client stalls.
struct RequestLimitsMiddleware: RouterMiddleware {
    /// Longest request target, in bytes.
    static var maximumTargetBytes: Int { 8_192 }

    /// The error a body above the upload limit gets.
    static var bodyTooLarge: PlacesError { PlacesError(.payloadTooLarge, "the request body is larger than 1 MiB") }

    /// The error a photo upload above its limit gets.
    static var photoTooLarge: PlacesError {
        PlacesError(.payloadTooLarge, "the photo is larger than 5 MiB (5,242,880 bytes), the limit of an upload")
    }

    /// The largest body the request's route reads, and how a larger one is refused.
    static func limit(of request: Request, context: PlacesRequestContext) -> (bytes: Int, refusal: PlacesError) {
        PhotoController.isUpload(method: request.method, path: request.uri.path)
            ? (PhotoFile.maxBytes, photoTooLarge) : (context.maxUploadSize, bodyTooLarge)
    }

    func handle(
        _ request: Request,
        context: PlacesRequestContext,
        next: (Request, PlacesRequestContext) async throws -> Response
    ) async throws -> Response {
        guard request.uri.description.utf8.count <= Self.maximumTargetBytes else {
            throw PlacesError(.uriTooLong, "the request target is longer than \(Self.maximumTargetBytes) bytes")
        }
        let limit = Self.limit(of: request, context: context)
        if Self.declaresMore(than: limit.bytes, contentLength: request.headers[.contentLength]) {
            return context.closingConnection(after: try limit.refusal.response(status: .contentTooLarge))
        }
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            return context.closingConnection(after: try limit.refusal.response(status: .contentTooLarge))
        }
    }

    /// Whether a `Content-Length` announces more than `limit` bytes (a number too large for `Int` included).
    static func declaresMore(than limit: Int, contentLength: String?) -> Bool {
        guard let contentLength, !contentLength.isEmpty, contentLength.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return false }
        return Int(contentLength).map { $0 > limit } ?? true
    }
}
