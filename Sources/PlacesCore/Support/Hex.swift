/// Lowercase hexadecimal text: of bytes (a SHA-256, a lot's seed), two digits each; of a 64-bit number (the random
/// part of an id), sixteen digits, zeros first.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Two lowercase hex digits a byte, in order.
    static func text(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Sixteen lowercase hex digits, zeros first.
    static func text(_ number: UInt64) -> String {
        withUnsafeBytes(of: number.bigEndian) { text($0) }
    }
}
