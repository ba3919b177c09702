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
        firstIndex(past: lon, inclusive: false)
    }

    /// The first index whose longitude is above `lon`.
    @inline(__always)
    func firstIndex(above lon: Float) -> Int {
        firstIndex(past: lon, inclusive: true)
    }

    /// The first index whose longitude is past `lon`: above it when `inclusive` (an equal one counts as before it),
    /// otherwise not below it. The directory narrows the search to the entries between two samples.
    @inline(__always)
    private func firstIndex(past lon: Float, inclusive: Bool) -> Int {
        var low = 0
        var high = samples.count
        while low < high {
            let mid = (low &+ high) >> 1
            let before = inclusive ? samples[mid] <= lon : samples[mid] < lon
            if before { low = mid &+ 1 } else { high = mid }
        }
        // entries[(low-1)·8] is before `lon` and entries[low·8] is not: the answer is in between.
        let first = low == 0 ? 0 : (low &- 1) &* BandView.stride &+ 1
        return entries.firstIndex(in: first..<min(low &* BandView.stride, entries.count), past: lon, inclusive: inclusive)
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
