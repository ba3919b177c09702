import Foundation

/// The JSON conventions of every answer, HTTP and CLI alike: camelCase keys, ISO-8601 UTC dates, sorted keys.
public enum PlacesJSON {
    /// A new encoder configured the one way Places writes JSON.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
