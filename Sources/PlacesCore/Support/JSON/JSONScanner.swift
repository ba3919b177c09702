/// The byte-level JSON grammar behind `JSONText` and `JSONElementStream`: a cursor over UTF-8 bytes the caller keeps alive.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The byte at the cursor, or nil at the end.
    var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    func error(_ message: String, at position: Int? = nil) -> JSONSyntaxError {
        let (line, column) = UTF8Text.position(of: position ?? offset, in: bytes)
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    /// What stands at the cursor, for messages: `'x'`, `end of input` or a non-ASCII character.
    var found: String { JSONScanner.describe(peek) }

    static func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "end of input" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte >= 0x80 { return "a non-ASCII character" }
        return "control byte 0x" + String(byte, radix: 16)
    }

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    /// Checks that only white space follows the document.
    mutating func expectEnd() throws(JSONSyntaxError) {
        skipWhitespace()
        if offset < bytes.count { throw error("unexpected \(found) after the JSON value") }
    }

    /// After an element or member (or an opening bracket when `first`): consumes `,` and returns false, or consumes
    /// `close` and returns true. Leaves the cursor on the next token.
    mutating func separator(close: UInt8, first: Bool) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        if peek == close {
            offset += 1
            return true
        }
        if first { return false }
        guard peek == UInt8(ascii: ",") else {
            let container = close == UInt8(ascii: "]") ? "an array element" : "an object member"
            throw error("expected ',' or '\(Character(Unicode.Scalar(close)))' after \(container), found \(found)")
        }
        offset += 1
        skipWhitespace()
        return false
    }

    /// Reads `"key" :` and leaves the cursor on the member's value.
    mutating func memberKey() throws(JSONSyntaxError) -> String {
        guard peek == UInt8(ascii: "\"") else { throw error("expected a string key, found \(found)") }
        let key = try string()
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\", found \(found)") }
        offset += 1
        skipWhitespace()
        return key
    }

    /// Reads the value at the cursor; `depth` is the nesting level an array or object here would have.
    mutating func value(depth: Int) throws(JSONSyntaxError) -> FieldValue {
        guard let byte = peek else { throw error("unexpected end of input, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .text(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected \(found), expected a value")
        }
    }

    private mutating func checkDepth(_ depth: Int) throws(JSONSyntaxError) {
        guard depth <= JSONText.maximumDepth else { throw error("arrays and objects nest deeper than \(JSONText.maximumDepth) levels") }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> FieldValue {
        try checkDepth(depth)
        offset += 1
        var items: [FieldValue] = []
        var first = true
        while try !separator(close: UInt8(ascii: "]"), first: first) {
            items.append(try value(depth: depth + 1))
            first = false
        }
        return .list(items)
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> FieldValue {
        try checkDepth(depth)
        offset += 1
        var members: [String: FieldValue] = [:]
        var first = true
        while try !separator(close: UInt8(ascii: "}"), first: first) {
            let key = try memberKey()
            members[key] = try value(depth: depth + 1)
            first = false
        }
        return .object(members)
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        let matches =
            offset + count <= bytes.count
            && (0..<count).allSatisfy { bytes[offset + $0] == word.utf8Start[$0] }
        guard matches else { throw error("unexpected \(found), expected a value (did you mean \(word)?)") }
        offset += count
    }

    // MARK: - Strings

    /// Reads a string at the cursor (on its opening quote).
    mutating func string() throws(JSONSyntaxError) -> String {
        let open = offset
        offset += 1
        let start = offset
        var ascii = true
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                if !ascii { try validateUTF8(start..<offset) }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
                offset += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(open: open, start: start) }
            if byte < 0x20 { throw error("a control character must be escaped in a string (like \\n or \\u0001)") }
            if byte >= 0x80 { ascii = false }
            offset += 1
        }
        throw error("unterminated string", at: open)
    }

    /// Continues `string()` from the first backslash, collecting the decoded bytes.
    private mutating func escapedString(open: Int, start: Int) throws(JSONSyntaxError) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(offset - start + 16)
        decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<offset]))
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                // Escapes are ASCII, so the raw text is valid UTF-8 exactly when every unescaped run is.
                try validateUTF8(start..<offset)
                offset += 1
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &decoded)
            case 0..<0x20:
                throw error("a control character must be escaped in a string (like \\n or \\u0001)")
            default:
                decoded.append(byte)
                offset += 1
            }
        }
        throw error("unterminated string", at: open)
    }

    /// Decodes the escape at the cursor (on its backslash).
    private mutating func escape(into decoded: inout [UInt8]) throws(JSONSyntaxError) {
        guard offset + 1 < bytes.count else { throw error("unterminated escape at end of input") }
        let simple: UInt8?
        switch bytes[offset + 1] {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
            offset += 1
            throw error("invalid escape: a backslash followed by \(found)")
        }
        if let simple {
            decoded.append(simple)
            offset += 2
            return
        }
        let escapeStart = offset
        var scalar = try hexUnit(at: offset + 2)
        offset += 6
        if (0xD800...0xDBFF).contains(scalar) {
            // A scalar above U+FFFF arrives as a surrogate pair: \uD83D\uDE00.
            guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                throw error("unpaired high surrogate in \\u escape", at: escapeStart)
            }
            let low = try hexUnit(at: offset + 2)
            guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired high surrogate in \\u escape", at: escapeStart) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            offset += 6
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw error("unpaired low surrogate in \\u escape", at: escapeStart)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape", at: escapeStart) }
        decoded.append(contentsOf: unicode.utf8)
    }

    /// The four hex digits at `position` as a number.
    private func hexUnit(at position: Int) throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("\\u must be followed by four hex digits", at: position) }
        var unit: UInt32 = 0
        for index in position..<position + 4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("\\u must be followed by four hex digits", at: index)
            }
            unit = unit << 4 | UInt32(digit)
        }
        return unit
    }

    private func validateUTF8(_ range: Range<Int>) throws(JSONSyntaxError) {
        if let bad = UTF8Text.firstInvalidOffset(bytes, from: range.lowerBound, to: range.upperBound) {
            throw error("invalid UTF-8 in a string", at: bad)
        }
    }
}
