/// Bounds-checked reads of an upload's bytes: every offset is relative to the start of what it reads, and any read
/// that would pass the end answers nil instead of trapping, so no input can crash a parser.
struct ByteReader {
    /// The bytes read.
    let bytes: ArraySlice<UInt8>

    /// Reads `bytes` (a slice keeps its parent's indices; offsets here start at 0 all the same).
    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    /// Reads a whole array.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes[...]
    }

    /// How many bytes there are.
    var count: Int { bytes.count }

    /// The index in `bytes` of `offset`, when `offset ..< offset + length` lies within them.
    private func index(_ offset: Int, length: Int) -> Int? {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else { return nil }
        return bytes.startIndex + offset
    }

    /// The range `offset ..< offset + length` (as offsets), when it lies within the bytes.
    func range(_ offset: Int, length: Int) -> Range<Int>? {
        guard index(offset, length: length) != nil else { return nil }
        return offset..<(offset + length)
    }

    /// The bytes at `range` (offsets), or nil when it passes the end.
    func slice(_ range: Range<Int>) -> ArraySlice<UInt8>? {
        guard let start = index(range.lowerBound, length: range.count) else { return nil }
        return bytes[start..<(start + range.count)]
    }

    /// The byte at `offset`.
    func byte(at offset: Int) -> Int? {
        guard let start = index(offset, length: 1) else { return nil }
        return Int(bytes[start])
    }

    /// True when the bytes at `offset` are `expected`.
    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        guard let start = index(offset, length: expected.count) else { return false }
        return bytes[start..<(start + expected.count)].elementsEqual(expected)
    }

    /// An unsigned integer of `length` bytes (at most 7) at `offset`, most significant byte first (big-endian) or last.
    func uint(at offset: Int, length: Int, bigEndian: Bool) -> Int? {
        guard length <= 7 else { return nil }
        guard let start = index(offset, length: length) else { return nil }
        var value = 0
        for step in 0..<length {
            let byte = Int(bytes[start + (bigEndian ? step : length - 1 - step)])
            value = value << 8 | byte
        }
        return value
    }

    /// A 16-bit unsigned integer, big-endian.
    func uint16BE(at offset: Int) -> Int? { uint(at: offset, length: 2, bigEndian: true) }
    /// A 16-bit unsigned integer, little-endian.
    func uint16LE(at offset: Int) -> Int? { uint(at: offset, length: 2, bigEndian: false) }
    /// A 24-bit unsigned integer, little-endian.
    func uint24LE(at offset: Int) -> Int? { uint(at: offset, length: 3, bigEndian: false) }
    /// A 32-bit unsigned integer, big-endian.
    func uint32BE(at offset: Int) -> Int? { uint(at: offset, length: 4, bigEndian: true) }
    /// A 32-bit unsigned integer, little-endian.
    func uint32LE(at offset: Int) -> Int? { uint(at: offset, length: 4, bigEndian: false) }
}

extension Array where Element == UInt8 {
    /// Appends the low 16 bits of `value`, big-endian.
    mutating func appendUInt16BE(_ value: Int) {
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends the low 32 bits of `value`, big-endian.
    mutating func appendUInt32BE(_ value: Int) {
        for shift in stride(from: 24, through: 0, by: -8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    /// Appends the low 32 bits of `value`, little-endian.
    mutating func appendUInt32LE(_ value: Int) {
        for shift in stride(from: 0, through: 24, by: 8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }
}
