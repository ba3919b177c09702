/// Splits RFC 4180 CSV bytes into records of cells, tracking the line each record starts on.
///
/// Records end at `\n` or `\r\n`; quoted cells may hold commas, doubled quotes and line breaks; fully empty lines
/// are skipped. A quote inside an unquoted cell is kept as it is (as most CSV writers expect). The bytes must be
/// valid UTF-8 (the reader checks the whole file first) and stay alive while the scanner is used.
struct CSVScanner {
    /// What `next(into:)` found.
    enum Outcome: Equatable {
        /// A record starting on `line`; its cells are in the array passed to `next(into:)`.
        case record(line: Int)
        /// A record starting on `line` that cannot be read; the scanner has moved past it.
        case malformed(line: Int, reason: String)
        /// No more records.
        case end
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset: Int
    private var line = 1
    private var scratch: [UInt8] = []

    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// Starts at `offset` (after a byte order mark, say), which is on line 1.
    init(bytes: UnsafeBufferPointer<UInt8>, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Reads the next record's cells into `cells` (emptied first): `.null` for an empty cell, `.text` otherwise.
    mutating func next(into cells: inout [FieldValue]) -> Outcome {
        skipEmptyLines()
        guard offset < bytes.count else { return .end }
        let start = line
        cells.removeAll(keepingCapacity: true)
        while true {
            // A comma as the file's last byte leaves one empty cell to end the record.
            guard offset < bytes.count else {
                cells.append(.null)
                return .record(line: start)
            }
            if bytes[offset] == CSVScanner.quote {
                guard let cell = quotedCell() else {
                    return .malformed(line: start, reason: "a quoted cell opened on line \(start) is never closed")
                }
                cells.append(cell)
                // After the closing quote only a comma or the end of the record may follow.
                if offset == bytes.count { return .record(line: start) }
                switch bytes[offset] {
                case CSVScanner.comma:
                    offset += 1
                    continue
                case CSVScanner.newline:
                    offset += 1
                    line += 1
                    return .record(line: start)
                case CSVScanner.carriageReturn where offset + 1 < bytes.count && bytes[offset + 1] == CSVScanner.newline:
                    offset += 2
                    line += 1
                    return .record(line: start)
                default:
                    skipRestOfLine()
                    return .malformed(line: start, reason: "unexpected text after a closing quote (write a quote inside a quoted cell as \"\")")
                }
            }
            cells.append(unquotedCell())
            if offset == bytes.count { return .record(line: start) }
            if bytes[offset] == CSVScanner.comma {
                offset += 1
                continue
            }
            // unquotedCell stops only at a comma, a line feed or the end.
            offset += 1
            line += 1
            return .record(line: start)
        }
    }

    private mutating func skipEmptyLines() {
        while offset < bytes.count {
            if bytes[offset] == CSVScanner.newline {
                offset += 1
            } else if bytes[offset] == CSVScanner.carriageReturn && offset + 1 < bytes.count && bytes[offset + 1] == CSVScanner.newline {
                offset += 2
            } else {
                return
            }
            line += 1
        }
    }

    private mutating func skipRestOfLine() {
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            if byte == CSVScanner.newline {
                line += 1
                return
            }
        }
    }

    /// The cell at the cursor up to a comma or line break (a `\r` before `\n` excluded); leaves the cursor on the stop.
    private mutating func unquotedCell() -> FieldValue {
        let start = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == CSVScanner.comma || byte == CSVScanner.newline { break }
            offset += 1
        }
        var end = offset
        // The cell stopped at a comma, a line feed or the end; a `\r` ends a CRLF break (or the file), not the cell.
        if end > start && bytes[end - 1] == CSVScanner.carriageReturn && (offset == bytes.count || bytes[offset] == CSVScanner.newline) {
            end -= 1
        }
        if end == start { return .null }
        return .text(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
    }

    /// The quoted cell at the cursor (on its opening quote) with `""` undoubled; leaves the cursor after the closing
    /// quote. Nil when the quote is never closed (the cursor is then at the end).
    private mutating func quotedCell() -> FieldValue? {
        offset += 1
        let start = offset
        var doubled = false
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == CSVScanner.quote {
                if offset + 1 < bytes.count && bytes[offset + 1] == CSVScanner.quote {
                    doubled = true
                    offset += 2
                    continue
                }
                let end = offset
                offset += 1
                if end == start { return .null }
                let content = UnsafeBufferPointer(rebasing: bytes[start..<end])
                return .text(doubled ? undoubled(content) : String(decoding: content, as: UTF8.self))
            }
            if byte == CSVScanner.newline { line += 1 }
            offset += 1
        }
        return nil
    }

    private mutating func undoubled(_ content: UnsafeBufferPointer<UInt8>) -> String {
        scratch.removeAll(keepingCapacity: true)
        var previousWasQuote = false
        for byte in content {
            if byte == CSVScanner.quote && previousWasQuote {
                previousWasQuote = false
                continue
            }
            previousWasQuote = byte == CSVScanner.quote
            scratch.append(byte)
        }
        return String(decoding: scratch, as: UTF8.self)
    }
}
