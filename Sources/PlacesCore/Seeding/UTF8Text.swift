/// Byte-level facts about UTF-8 text that the seed readers need: validity, a byte order mark, and where an offset sits.
///
/// Lines end at `\n` (so `\r\n` is one line break); columns count Unicode scalars from the line's start, both 1-based.
enum UTF8Text {
    /// The length of a UTF-8 byte order mark at `start`, or 0.
    static func byteOrderMarkLength(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int = 0) -> Int {
        guard bytes.count - start >= 3, bytes[start] == 0xEF, bytes[start + 1] == 0xBB, bytes[start + 2] == 0xBF else { return 0 }
        return 3
    }

    /// True when the bytes from `start` hold nothing but spaces, tabs and line breaks.
    static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Bool {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return false
            }
        }
        return true
    }

    /// The offset of the first byte that does not start a well-formed UTF-8 sequence in `start..<end`, or nil when all do.
    ///
    /// Rejects overlong forms, surrogates and scalars above U+10FFFF, as the Unicode standard requires.
    static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0, to end: Int? = nil) -> Int? {
        let end = end ?? bytes.count
        guard let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        var index = start
        while index < end {
            // Seed files are mostly ASCII: step over eight ASCII bytes at a time.
            if index + 8 <= end, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
                continue
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The length of the sequence and the range its second byte must fall in (which rules out overlong forms,
            // surrogates and scalars above U+10FFFF).
            let (length, low, high): (Int, UInt8, UInt8)
            switch lead {
            case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
            case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (length, low, high) = (3, 0x80, 0xBF)
            case 0xED: (length, low, high) = (3, 0x80, 0x9F)
            case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
            case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
            case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
            default: return index
            }
            guard index + length <= end else { return index }
            let second = bytes[index + 1]
            guard second >= low, second <= high else { return index }
            for next in stride(from: index + 2, to: index + length, by: 1) where bytes[next] & 0xC0 != 0x80 {
                return index
            }
            index += length
        }
        return nil
    }

    /// The 1-based line and column of `offset`.
    static func position(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        let offset = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        var column = 1
        // A byte order mark is not part of the text a person sees.
        if lineStart == 0 { lineStart = min(byteOrderMarkLength(bytes), offset) }
        for index in lineStart..<offset where bytes[index] & 0xC0 != 0x80 {
            column += 1
        }
        return (line, column)
    }
}

/// Counts lines forward through a buffer, so asking for the line of increasing offsets costs one pass over the text.
struct LineCounter {
    private var offset = 0
    private var line = 1

    /// The 1-based line of `target`; targets must not decrease between calls.
    mutating func line(at target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let target = min(target, bytes.count)
        while offset < target {
            if bytes[offset] == 0x0A { line += 1 }
            offset += 1
        }
        return line
    }
}
