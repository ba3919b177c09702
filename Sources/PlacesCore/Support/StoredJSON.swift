import Foundation

/// Values stored as JSON text in a column, the same on both engines: written with the API's encoder, read back
/// strictly (a stored value that does not read is an internal error, never a guess).
public enum StoredJSON {
    /// The JSON text of `value`, as the API writes it.
    public static func text(_ value: some Encodable) throws -> String {
        String(decoding: try PlacesJSON.makeEncoder().encode(value), as: UTF8.self)
    }

    /// Plain JSON text of strings (for SQLite's `json_each`), not the API's encoder, which escapes nothing SQLite needs.
    public static func plainText(_ value: [[String]]) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    /// The value that `text` stores.
    public static func value<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(type, from: Data(text.utf8))
        } catch {
            throw PlacesError(.internalError, "a stored \(type) is unreadable")
        }
    }
}
