import Hummingbird
import PlacesCore

extension PlacesError: HTTPResponseError {
    /// The HTTP status a code maps to.
    public var status: HTTPResponse.Status {
        switch code {
        case .invalidInput: .badRequest
        case .notFound: .notFound
        case .unknownReference: .unprocessableContent
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .conflict, .duplicatePlace, .limitReached: .conflict
        case .methodNotAllowed: .methodNotAllowed
        case .tooManyAttempts, .tooManyStreams: .tooManyRequests
        case .payloadTooLarge: .contentTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        case .uriTooLong: .uriTooLong
        case .unavailable, .outcomeUnknown: .serviceUnavailable
        default: .internalServerError
        }
    }

    /// The body every error has: `{"error": {"code": …, "message": …, "field": …}}`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try response(status: status)
    }

    /// The error body with an explicit status (a framework error keeps its own 4xx status).
    func response(status: HTTPResponse.Status) throws -> Response {
        let detail = ErrorBody.Detail(code: code.rawValue, message: message, field: field, existingId: existingID)
        var response = try JSONResponse.make(ErrorBody(error: detail), status: status)
        // Every 503 says when to try again: a second unless the error knows better.
        if let seconds = retryAfterSeconds ?? (status == .serviceUnavailable ? 1 : nil) { response.headers[.retryAfter] = String(seconds) }
        if code == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer" }
        return response
    }
}

/// The JSON shape of an error answer.
struct ErrorBody: Encodable {
    struct Detail: Encodable {
        var code: String
        var message: String
        var field: String?
        var existingId: String?
    }
    var error: Detail
}
