/// Reads the elements of one large array in a JSON document one at a time, each with the line where it starts.
///
/// The streamed array is the top-level array (when `streamsTopLevelArray`), or the array under `member` in the
/// top-level object, so `{"places": [...]}` and a GeoJSON `{"features": [...]}` never exist as one value in memory.
/// The rest of the document is parsed as usual and, once `next()` has returned nil, is available as `document`.
///
/// ```swift
/// var stream = JSONElementStream(bytes: bytes, member: "places")
/// while let element = try stream.next() { print(element.line, element.value) }
/// ```
public struct JSONElementStream: Sendable {
    /// One element of the streamed array.
    public struct Element: Sendable, Hashable {
        /// The element's value.
        public var value: FieldValue
        /// The 1-based line where the element starts.
        public var line: Int
    }

    private enum State {
        case start
        case topLevelArray(first: Bool)
        case object(first: Bool)
        case memberArray(first: Bool)
        case done
    }

    private let bytes: [UInt8]
    private let member: String?
    private let streamsTopLevelArray: Bool
    private var offset = 0
    private var state = State.start
    private var members: [String: FieldValue] = [:]
    private var lines = LineCounter()

    /// True once an array is being streamed: the top-level one, or the `member` array of the top-level object.
    public private(set) var foundArray = false

    /// The whole document once `next()` has returned nil, with a streamed array standing as an empty `.list`.
    /// A document that holds no array to stream is here complete (and `next()` returned no element).
    public private(set) var document: FieldValue?

    /// Prepares to stream `bytes` (UTF-8; a leading byte order mark is ignored).
    ///
    /// - Parameters:
    ///   - member: the key, in the top-level object, of the array to stream; nil streams only a top-level array.
    ///   - streamsTopLevelArray: whether a top-level array is streamed (otherwise it is parsed into `document`).
    public init(bytes: [UInt8], member: String?, streamsTopLevelArray: Bool = true) {
        self.bytes = bytes
        self.member = member
        self.streamsTopLevelArray = streamsTopLevelArray
    }

    /// The next element of the streamed array, or nil when the document has been read to its end.
    ///
    /// After an error the stream is finished: later calls return nil.
    public mutating func next() throws(JSONSyntaxError) -> Element? {
        let bytes = self.bytes
        return try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) -> Element? in
            var scanner = JSONScanner(bytes: buffer)
            scanner.offset = offset
            defer { offset = scanner.offset }
            do throws(JSONSyntaxError) {
                return try step(&scanner)
            } catch {
                state = .done
                throw error
            }
        }
    }

    private mutating func step(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Element? {
        while true {
            switch state {
            case .start:
                scanner.offset = UTF8Text.byteOrderMarkLength(scanner.bytes)
                scanner.skipWhitespace()
                if scanner.peek == UInt8(ascii: "[") && streamsTopLevelArray {
                    scanner.offset += 1
                    foundArray = true
                    state = .topLevelArray(first: true)
                } else if scanner.peek == UInt8(ascii: "{") && member != nil {
                    scanner.offset += 1
                    state = .object(first: true)
                } else {
                    document = try scanner.value(depth: 1)
                    try scanner.expectEnd()
                    state = .done
                }

            case .topLevelArray(let first):
                if try scanner.separator(close: UInt8(ascii: "]"), first: first) {
                    try scanner.expectEnd()
                    document = .list([])
                    state = .done
                    return nil
                }
                state = .topLevelArray(first: false)
                return try element(&scanner, depth: 2)

            case .memberArray(let first):
                if try scanner.separator(close: UInt8(ascii: "]"), first: first) {
                    if let member { members[member] = .list([]) }
                    state = .object(first: false)
                    continue
                }
                state = .memberArray(first: false)
                return try element(&scanner, depth: 3)

            case .object(let first):
                if try scanner.separator(close: UInt8(ascii: "}"), first: first) {
                    try scanner.expectEnd()
                    document = .object(members)
                    state = .done
                    return nil
                }
                let key = try scanner.memberKey()
                state = .object(first: false)
                if key == member && scanner.peek == UInt8(ascii: "[") {
                    scanner.offset += 1
                    foundArray = true
                    state = .memberArray(first: true)
                } else {
                    members[key] = try scanner.value(depth: 2)
                }

            case .done:
                return nil
            }
        }
    }

    private mutating func element(_ scanner: inout JSONScanner, depth: Int) throws(JSONSyntaxError) -> Element {
        let line = lines.line(at: scanner.offset, in: scanner.bytes)
        return Element(value: try scanner.value(depth: depth), line: line)
    }
}
