import Hummingbird
import PlacesCore

/// Reading a request's JSON body.
///
/// A body that is not empty must be sent as `Content-Type: application/json` (415 `unsupported_media_type`
/// otherwise): the media types an HTML form may post across sites (`text/plain`,
/// `application/x-www-form-urlencoded`, `multipart/form-data`) never reach a route, whatever their bytes.
enum RequestBody {
    /// The body as a JSON value (413 above the context's upload limit, 415 when not sent as JSON, 400 when it is not JSON).
    static func json(_ request: Request, context: some RequestContext) async throws -> FieldValue {
        try FieldReader.parse(Array(try await bytes(request, context: context).readableBytesView))
    }

    /// The body as a JSON object whose names all belong to `allowed`.
    static func object(_ request: Request, context: some RequestContext, allowed: Set<String>) async throws -> FieldReader {
        try FieldReader(try await json(request, context: context), allowed: allowed)
    }

    /// The body as a JSON object whose names all belong to `allowed`, or nil when the request sent no body (which
    /// then needs no Content-Type).
    static func optionalObject(_ request: Request, context: some RequestContext, allowed: Set<String>) async throws -> FieldReader? {
        let buffer = try await bytes(request, context: context)
        guard buffer.readableBytes > 0 else { return nil }
        return try FieldReader(try FieldReader.parse(Array(buffer.readableBytesView)), allowed: allowed)
    }

    /// The body's bytes, up to the context's upload limit; bytes sent as anything but JSON are refused.
    private static func bytes(_ request: Request, context: some RequestContext) async throws -> ByteBuffer {
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        guard buffer.readableBytes == 0 || isJSON(contentType: request.headers[.contentType]) else {
            throw PlacesError(.unsupportedMediaType, "send the body as JSON, with Content-Type: application/json")
        }
        return buffer
    }

    /// Whether a Content-Type names `application/json`, in any case, with or without parameters (`; charset=utf-8`).
    static func isJSON(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        return mediaType.lowercased() == "application/json"
    }
}
