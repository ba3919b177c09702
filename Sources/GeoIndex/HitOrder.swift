/// The (distance, tie-break) order of hits, and a sort for the large answers of "all within R" queries.
struct HitOrder {
    /// True when key a comes before key b at equal distance; nil means ascending key.
    let tieBreak: ((UInt32, UInt32) -> Bool)?

    @inline(__always)
    func less(_ a: GridHit, _ b: GridHit) -> Bool {
        if a.distanceMeters != b.distanceMeters { return a.distanceMeters < b.distanceMeters }
        if let tieBreak { return tieBreak(a.key, b.key) }
        return a.key < b.key
    }

    /// Sorts hits whose distances lie in [0, maxDistance].
    ///
    /// A comparison sort of 20,000 hits costs milliseconds; instead hits are bucketed by distance² (uniform in area
    /// for evenly spread places, so buckets stay small), then each bucket gets an insertion sort. The bucket is a
    /// monotone function of the distance, so equal distances share a bucket and the tie-break still decides them.
    func sort(_ hits: inout [GridHit], maxDistance: Double) {
        let n = hits.count
        if n <= 48 || !(maxDistance > 0) || !maxDistance.isFinite {
            insertionOrFallbackSort(&hits, 0, n)
            return
        }
        let bucketCount = n / 2
        let scale = Double(bucketCount) / (maxDistance * maxDistance)
        let last = bucketCount - 1
        var bounds = [Int32](repeating: 0, count: bucketCount + 1)
        bounds.withUnsafeMutableBufferPointer { bounds in
            hits.withUnsafeBufferPointer { hits in
                for hit in hits {
                    let d = hit.distanceMeters
                    bounds[min(Int(d * d * scale), last) &+ 1] &+= 1
                }
            }
            for b in 0..<bucketCount { bounds[b + 1] &+= bounds[b] }
        }
        var next = bounds
        var sorted = [GridHit](unsafeUninitializedCapacity: n) { out, initialized in
            next.withUnsafeMutableBufferPointer { next in
                hits.withUnsafeBufferPointer { hits in
                    for hit in hits {
                        let d = hit.distanceMeters
                        let b = min(Int(d * d * scale), last)
                        out.initializeElement(at: Int(next[b]), to: hit)
                        next[b] &+= 1
                    }
                }
            }
            initialized = n
        }
        hits = []
        sorted.withUnsafeMutableBufferPointer { h in
            bounds.withUnsafeBufferPointer { bounds in
                for b in 0..<bucketCount where bounds[b + 1] - bounds[b] > 1 {
                    insertionOrFallbackSort(h, Int(bounds[b]), Int(bounds[b + 1]))
                }
            }
        }
        hits = sorted
    }

    /// Insertion sort for small ranges, the standard library's sort when a bucket is unexpectedly crowded.
    private func insertionOrFallbackSort(_ hits: inout [GridHit], _ start: Int, _ end: Int) {
        hits.withUnsafeMutableBufferPointer { insertionOrFallbackSort($0, start, end) }
    }

    private func insertionOrFallbackSort(_ h: UnsafeMutableBufferPointer<GridHit>, _ start: Int, _ end: Int) {
        if end - start > 24 {
            var slice = UnsafeMutableBufferPointer(rebasing: h[start..<end])
            slice.sort { less($0, $1) }
            return
        }
        var i = start + 1
        while i < end {
            let item = h[i]
            var j = i
            while j > start, less(item, h[j - 1]) {
                h[j] = h[j - 1]
                j -= 1
            }
            h[j] = item
            i += 1
        }
    }
}
