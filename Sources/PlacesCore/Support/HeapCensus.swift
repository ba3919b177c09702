/// Counts the heap bytes of the index's structures from what they hold: arrays and dictionaries by their capacity,
/// strings by their length, each allocation rounded as glibc's malloc rounds it, and each shared allocation (a tag list,
/// a string two structures hold) counted once, by whichever structure is counted first.
///
/// What it cannot see it estimates, and says so: the layout of the standard library's buffers (an array's header of 32
/// bytes, a dictionary's of 64 and its bitmap), and the allocator's own overhead (8 bytes a chunk, chunks of 16-byte
/// granules, 32 bytes at least). Large buffers that glibc maps with `mmap` are rounded to pages instead; the
/// difference is below a page per buffer. For `places-bench --memory`, which sets these counts beside the process's
/// resident size, and for the test that checks them.
struct HeapCensus {
    /// Addresses of the shared allocations already counted.
    private var seen: Set<UInt> = []

    /// Makes an empty census.
    init() {}

    /// The bytes glibc's malloc takes for a request of `bytes` on a 64-bit machine: the request and its 8-byte chunk
    /// header rounded up to 16, 32 at least (0 for no request).
    static func chunk(_ bytes: Int) -> Int {
        bytes <= 0 ? 0 : max(32, (bytes + 8 + 15) & ~15)
    }

    /// An array's buffer header: the object's 16 bytes, its count and its capacity.
    static let arrayHeader = 32

    /// A dictionary's or set's storage header: the object's 16 bytes, then count, capacity, scale, age, seed and the
    /// keys' and values' addresses.
    static let hashTableHeader = 64

    /// The bytes of an array's buffer of `capacity` elements of `stride` bytes (an empty array shares one buffer: 0).
    static func array(capacity: Int, stride: Int) -> Int {
        capacity == 0 ? 0 : chunk(arrayHeader + capacity * stride)
    }

    /// The bytes of an array's buffer (not of what its elements point to).
    static func array<Element>(_ array: [Element]) -> Int {
        Self.array(capacity: array.capacity, stride: MemoryLayout<Element>.stride)
    }

    /// The bytes of a dictionary's (or, with a value stride of 0, a set's) storage: its buckets (a power of two that
    /// `capacity`, three quarters of them, fits in), a bit per bucket, and each bucket's key and value.
    static func hashTable(capacity: Int, keyStride: Int, valueStride: Int) -> Int {
        guard capacity > 0 else { return 0 }
        var buckets = 1
        while buckets * 3 / 4 < capacity { buckets *= 2 }
        let bitmap = (buckets + 63) / 64 * 8
        return chunk(hashTableHeader + bitmap + buckets * (keyStride + valueStride))
    }

    /// The bytes of a dictionary's storage (not of what its keys and values point to).
    static func dictionary<Key, Value>(_ dictionary: [Key: Value]) -> Int {
        hashTable(capacity: dictionary.capacity, keyStride: MemoryLayout<Key>.stride, valueStride: MemoryLayout<Value>.stride)
    }

    /// The bytes of a set's storage (not of what its members point to).
    static func set<Member>(_ set: Set<Member>) -> Int {
        hashTable(capacity: set.capacity, keyStride: MemoryLayout<Member>.stride, valueStride: 0)
    }

    /// The heap bytes of a string not counted before: none for a string of up to 15 UTF-8 bytes (held inside the
    /// `String` itself), else its storage (a 32-byte header, the bytes and a terminating zero), once per storage.
    mutating func string(_ string: String) -> Int {
        let count = string.utf8.count
        guard count > 15 else { return 0 }
        let address = string.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) }
        if let address, !seen.insert(address).inserted { return 0 }
        return Self.chunk(32 + count + 1)
    }

    /// The heap bytes of an optional string (none for nil).
    mutating func string(_ string: String?) -> Int {
        string.map { self.string($0) } ?? 0
    }

    /// The heap bytes of a list of strings not counted before: its buffer and its strings, once per buffer.
    mutating func strings(_ strings: [String]) -> Int {
        guard strings.capacity > 0 else { return 0 }
        let address = strings.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        guard seen.insert(address).inserted else { return 0 }
        return strings.reduce(Self.array(strings)) { $0 + string($1) }
    }

    /// The heap bytes of a weekly schedule not counted before: its dictionary and its days' lists, once per dictionary.
    mutating func hours(_ hours: OpeningHours?) -> Int {
        guard let hours, !hours.days.isEmpty else { return 0 }
        // A dictionary is one reference to its storage: its bits are the storage's address.
        let address = withUnsafeBytes(of: hours.days) { $0.load(as: UInt.self) }
        guard seen.insert(address).inserted else { return 0 }
        return hours.days.values.reduce(Self.dictionary(hours.days)) { $0 + Self.array($1) }
    }
}
