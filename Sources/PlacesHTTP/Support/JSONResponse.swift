import Foundation
import Hummingbird
import PlacesCore

/// Encodes answers as the API promises: camelCase keys, ISO-8601 UTC dates, stable key order.
enum JSONResponse {
    static let encoder = PlacesJSON.makeEncoder()

    /// A response with `value` as its JSON body.
    static func make(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        contentType: String = "application/json"
    ) throws -> Response {
        let data = try encoder.encode(value)
        return Response(
            status: status,
            headers: [.contentType: contentType],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
