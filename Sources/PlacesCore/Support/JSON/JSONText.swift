/// A strict RFC 8259 JSON parser over UTF-8 bytes that produces `FieldValue`s.
///
/// Numbers become `.number(Double)`, strings `.text`, arrays `.list`, objects `.object` (a repeated key keeps its last
/// value). A leading byte order mark is ignored, as RFC 8259 allows. Nesting deeper than `maximumDepth` and numbers
/// beyond `Double`'s range are errors, never a crash. For large arrays read element by element, see `JSONElementStream`.
public enum JSONText {
    /// The deepest nesting of arrays and objects accepted; a top-level array is depth 1.
    public static let maximumDepth = 64

    /// Parses one JSON document.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> FieldValue {
        var text = text
        // `withUTF8` rethrows untyped errors; carry the typed one out in a Result.
        let result = text.withUTF8 { bytes in Result { () throws(JSONSyntaxError) in try parse(bytes: bytes) } }
        return try result.get()
    }

    /// Parses one JSON document from UTF-8 bytes.
    public static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> FieldValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in try parse(bytes: buffer) }
    }

    /// Parses one JSON document from UTF-8 bytes in memory the caller owns for the duration of the call.
    public static func parse(bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> FieldValue {
        var scanner = JSONScanner(bytes: bytes)
        scanner.offset = UTF8Text.byteOrderMarkLength(bytes)
        scanner.skipWhitespace()
        let value = try scanner.value(depth: 1)
        try scanner.expectEnd()
        return value
    }
}

/// Why a JSON text does not parse, and where (1-based line and column; columns count Unicode scalars).
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line of the fault.
    public var line: Int
    /// The column of the fault within its line.
    public var column: Int
    /// What is wrong, for people.
    public var message: String

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }
}
