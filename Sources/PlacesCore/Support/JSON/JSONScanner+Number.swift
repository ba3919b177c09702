extension JSONScanner {
    /// Exact powers of ten: a mantissa below 2^53 times or divided by one of these rounds correctly (Clinger's fast path).
    fileprivate static let powersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }

    /// Reads a number in RFC 8259's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func number() throws(JSONSyntaxError) -> Double {
        let start = offset
        let negative = bytes[offset] == UInt8(ascii: "-")
        if negative { offset += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        guard let firstDigit = digit() else { throw error("expected a digit after '-'") }
        if firstDigit == 0 {
            offset += 1
            if digit() != nil { throw error("a number must not have a leading zero", at: start) }
        } else {
            while let next = digit() {
                mantissa = mantissa &* 10 &+ UInt64(next)
                digits += 1
                offset += 1
            }
        }
        if peek == UInt8(ascii: ".") {
            offset += 1
            guard digit() != nil else { throw error("expected a digit after the decimal point") }
            while let next = digit() {
                mantissa = mantissa &* 10 &+ UInt64(next)
                digits += 1
                scale -= 1
                offset += 1
            }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            offset += 1
            var exponentNegative = false
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") {
                exponentNegative = peek == UInt8(ascii: "-")
                offset += 1
            }
            guard digit() != nil else { throw error("expected a digit in the exponent") }
            var exponent = 0
            while let next = digit() {
                if exponent < 100_000 { exponent = exponent * 10 + Int(next) }
                offset += 1
            }
            scale += exponentNegative ? -exponent : exponent
        }
        var value: Double
        if digits <= 15, (-22...22).contains(scale) {
            value = Double(mantissa)
            value = scale >= 0 ? value * JSONScanner.powersOfTen[scale] : value / JSONScanner.powersOfTen[-scale]
            if negative { value = -value }
        } else {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            guard let parsed = Double(text) else { throw error("invalid number", at: start) }
            value = parsed
        }
        guard value.isFinite else { throw error("number is too large for a double", at: start) }
        return value
    }

    /// The decimal digit at the cursor, or nil.
    fileprivate func digit() -> UInt8? {
        guard offset < bytes.count else { return nil }
        let byte = bytes[offset] &- UInt8(ascii: "0")
        return byte < 10 ? byte : nil
    }
}
