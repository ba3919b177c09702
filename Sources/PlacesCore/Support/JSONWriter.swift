/// Writes JSON straight into bytes, exactly as `PlacesJSON.makeEncoder()` would write the same values.
///
/// For the answers on the hot path (a nearby answer of 50 places): Foundation's `JSONEncoder` builds a tree of
/// boxed values and sorts every object's keys before writing a byte, which made it most of a nearby request's
/// cost. Callers write each object's keys in sorted order themselves; tests compare the bytes with the encoder's.
public struct JSONWriter: Sendable {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8] = []
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    private var needsComma = false

    /// Makes an empty writer with room for `capacity` bytes.
    public init(capacity: Int = 1_024) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes an object whose members `body` writes (in sorted key order).
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    /// Writes an array whose elements `body` writes.
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "["))
        body(&self)
        close(UInt8(ascii: "]"))
    }

    /// Writes a member's key; its value is whatever is written next.
    public mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        // The value follows the colon directly.
        needsComma = false
    }

    /// Writes a string, escaped as the encoder escapes it (quotes, backslashes and control characters; `/` as is).
    public mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for (offset, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<offset]))
                appendEscaped(byte)
                start = offset + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The string `string(_:)` wrote as `value` (its quotes included): the inverse of its escapes (`\"`, `\\`, the
    /// short forms of control characters and `\u00XX` for the others); every other byte is the string's UTF-8.
    static func writtenString(_ value: UnsafeBufferPointer<UInt8>) -> String {
        let body = UnsafeBufferPointer(rebasing: value.dropFirst().dropLast())
        guard body.contains(UInt8(ascii: "\\")) else { return String(decoding: body, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(body.count)
        var index = body.startIndex
        while index < body.endIndex {
            let byte = body[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < body.endIndex else {
                bytes.append(byte)
                continue
            }
            let escape = body[index]
            index += 1
            switch escape {
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                // Only control characters are written so: \u00XX.
                var code: UInt8 = 0
                for digit in body[index..<min(index + 4, body.endIndex)] {
                    code = code << 4 | UInt8((Character(UnicodeScalar(digit)).hexDigitValue ?? 0) & 0xF)
                }
                index += 4
                bytes.append(code)
            default: bytes.append(escape)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes a finite number the way the encoder does: Swift's shortest round-trip form, without a trailing `.0`.
    ///
    /// The digits are those of `value.description`, written straight into the bytes rather than through a `String`.
    public mutating func number(_ value: Double) {
        separate()
        let start = bytes.count
        var digits = DigitSink()
        swap(&digits.bytes, &bytes)
        value.write(to: &digits)
        swap(&digits.bytes, &bytes)
        let count = bytes.count
        if count - start > 2, bytes[count - 2] == UInt8(ascii: "."), bytes[count - 1] == UInt8(ascii: "0") {
            bytes.removeLast(2)
        }
    }

    /// Writes an integer.
    public mutating func number(_ value: Int) {
        separate()
        var text = String(value)
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Writes an object of two numbers, its keys given in sorted order: `{"lat": 1.5, "lon": 2}`.
    public mutating func object(_ first: StaticString, _ a: Double, _ second: StaticString, _ b: Double) {
        object { writer in
            writer.key(first)
            writer.number(a)
            writer.key(second)
            writer.number(b)
        }
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Writes an optional member: nothing at all when `value` is nil, as the encoder leaves out absent optionals.
    public mutating func member<Value>(_ key: StaticString, _ value: Value?, _ write: (inout JSONWriter, Value) -> Void) {
        guard let value else { return }
        self.key(key)
        write(&self, value)
    }

    /// Writes a member's key given as JSON writes it, with its quotes and the colon (`"city":`), in one copy; its value
    /// is whatever is written next.
    mutating func key(quoted: StaticString) {
        separate()
        bytes.append(contentsOf: UnsafeBufferPointer(start: quoted.utf8Start, count: quoted.utf8CodeUnitCount))
        needsComma = false
    }

    /// Writes a value made earlier by another writer as it is.
    mutating func value(_ json: UnsafeBufferPointer<UInt8>) {
        separate()
        bytes.append(contentsOf: json)
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma = true
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex = JSONWriter.hexDigits
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }
}

/// Where `Double.write(to:)` puts its digits: the standard library hands them over as ASCII bytes, without
/// making a `String`.
private struct DigitSink: TextOutputStream {
    var bytes: [UInt8] = []

    mutating func write(_ string: String) {
        bytes.append(contentsOf: string.utf8)
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }
}
