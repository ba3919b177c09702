/// An array kept in chunks of 1,024 elements, so a copy-on-write change copies one chunk and the list of chunks,
/// not the whole array.
///
/// The place index changes a copy of its million-slot tables while readers keep answering from the previous copy;
/// with one flat array every change would copy a million elements.
struct ChunkedArray<Element: Sendable>: Sendable {
    private static var chunkShift: Int { 10 }
    private static var chunkSize: Int { 1 << chunkShift }
    private var chunks: [[Element]] = []
    /// How many elements it holds.
    private(set) var count = 0

    /// Makes an empty array.
    init() {}

    /// The element at `index` (0 ..< count).
    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "index out of range")
            // Read through borrowed buffers: a query reads 50 or more elements, and retaining the chunk each time
            // would make every query write to reference counts that all queries share.
            return chunks.withUnsafeBufferPointer { chunks in
                chunks[index &>> Self.chunkShift].withUnsafeBufferPointer { $0[index & (Self.chunkSize &- 1)] }
            }
        }
        set { chunks[index &>> Self.chunkShift][index & (Self.chunkSize &- 1)] = newValue }
    }

    /// Adds an element at the end.
    mutating func append(_ element: Element) {
        if count & (Self.chunkSize - 1) == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// The bytes its buffers take, by capacity: the list of chunks and each chunk (not what the elements point to).
    var memoryBytes: Int {
        chunks.reduce(HeapCensus.array(chunks)) { $0 + HeapCensus.array($1) }
    }

    /// Makes room for `capacity` elements in the list of chunks.
    mutating func reserveCapacity(_ capacity: Int) {
        chunks.reserveCapacity((capacity + Self.chunkSize - 1) >> Self.chunkShift)
    }
}
