import PostgresNIO

/// COPY's text format, as the seed and `places copy` stream rows in it.
enum CopyText {
    /// Text with COPY's escapes for backslash, tab, newline and carriage return.
    static func writeEscaped(_ text: String, into buffer: inout ByteBuffer) {
        guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            buffer.writeString(text)
            return
        }
        for byte in text.utf8 {
            switch byte {
            case 0x5C: buffer.writeStaticString("\\\\")
            case 0x09: buffer.writeStaticString("\\t")
            case 0x0A: buffer.writeStaticString("\\n")
            case 0x0D: buffer.writeStaticString("\\r")
            default: buffer.writeInteger(byte)
            }
        }
    }

    /// Bytes as a `bytea` field of COPY's text format: `\\x` and two hex digits a byte (the backslash escaped).
    static func writeBytes(_ bytes: [UInt8], into buffer: inout ByteBuffer) {
        buffer.writeStaticString("\\\\x")
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 2 * bytes.count) { target in
            let digits: StaticString = "0123456789abcdef"
            digits.withUTF8Buffer { digits in
                bytes.withUnsafeBufferPointer { source in
                    for index in source.indices {
                        let byte = source[index]
                        target[2 * index] = digits[Int(byte >> 4)]
                        target[2 * index + 1] = digits[Int(byte & 0x0F)]
                    }
                }
            }
            return 2 * bytes.count
        }
    }
}
