/// A read-only view of one band: its longitude-sorted entries and a directory of every 8th entry's longitude.
///
/// Binary searches over 32-byte entries miss the cache at nearly every step and dominated small queries; the
/// directory packs 16 samples per cache line, so a search touches about half as many lines (for 0.5 byte a place).
struct BandView {
    static let stride = 8

    let entries: UnsafeBufferPointer<GridEntry>
    let samples: UnsafeBufferPointer<Float>

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    @inline(__always)
    subscript(_ i: Int) -> GridEntry { entries[i] }

    /// The first index whose longitude is not below `lon`.
    @inline(__always)
    func firstIndex(notBelow lon: Float) -> Int {
        var low = 0
        var high = samples.count
        while low < high {
            let mid = (low &+ high) >> 1
            if samples[mid] < lon { low = mid &+ 1 } else { high = mid }
        }
        // entries[(low-1)·8] < lon <= entries[low·8]: the answer is in between.
        var first = low == 0 ? 0 : (low &- 1) &* BandView.stride &+ 1
        var last = min(low &* BandView.stride, entries.count)
        while first < last {
            let mid = (first &+ last) >> 1
            if entries[mid].lon < lon { first = mid &+ 1 } else { last = mid }
        }
        return first
    }

    /// The first index whose longitude is above `lon`.
    @inline(__always)
    func firstIndex(above lon: Float) -> Int {
        var low = 0
        var high = samples.count
        while low < high {
            let mid = (low &+ high) >> 1
            if samples[mid] <= lon { low = mid &+ 1 } else { high = mid }
        }
        var first = low == 0 ? 0 : (low &- 1) &* BandView.stride &+ 1
        var last = min(low &* BandView.stride, entries.count)
        while first < last {
            let mid = (first &+ last) >> 1
            if entries[mid].lon <= lon { first = mid &+ 1 } else { last = mid }
        }
        return first
    }

    /// The directory for a sorted band.
    static func samples(of band: [GridEntry]) -> [Float] {
        guard !band.isEmpty else { return [] }
        let n = (band.count + stride - 1) / stride
        return [Float](unsafeUninitializedCapacity: n) { out, initialized in
            for i in 0..<n { out.initializeElement(at: i, to: band[i * stride].lon) }
            initialized = n
        }
    }
}

extension GridStorage {
    /// Runs `body` with a view of band `b`.
    @inline(__always)
    func withBand<R>(_ b: Int, _ body: (BandView) -> R) -> R {
        bands[b].withUnsafeBufferPointer { entries in
            directories[b].withUnsafeBufferPointer { samples in
                body(BandView(entries: entries, samples: samples))
            }
        }
    }
}
