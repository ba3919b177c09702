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
        make(json: try encoder.encode(value), status: status, contentType: contentType)
    }

    /// A 201 response with `value` as its JSON body and `Location` naming the address of what was created.
    static func created(_ value: some Encodable, at location: String) throws -> Response {
        var response = try make(value, status: .created)
        response.headers[.location] = location
        return response
    }

    /// A response whose body is JSON already written (by `JSONWriter`, on the hot paths).
    static func make(
        json: some Collection<UInt8>,
        status: HTTPResponse.Status = .ok,
        contentType: String = "application/json"
    ) -> Response {
        Response(
            status: status,
            headers: [.contentType: contentType],
            body: .init(byteBuffer: ByteBuffer(bytes: json))
        )
    }
}
