/// The k best hits so far in (distance, tie-break) order: a bounded max-heap whose top is the one to drop next.
///
/// Noncopyable over a buffer it owns: the heap is the innermost work of a k-nearest query, and an array's
/// uniqueness checks and bounds checks on every sift showed up in profiles.
struct BestHits: ~Copyable {
    private struct Candidate {
        var hit: GridHit
        /// The squared chord, so the search can compare raw chords against the current k-th.
        var chord: Double
    }

    private let buffer: UnsafeMutablePointer<Candidate>
    private(set) var count = 0
    let capacity: Int
    let order: HitOrder

    init(capacity: Int, order: HitOrder) {
        self.capacity = max(capacity, 1)
        self.order = order
        buffer = .allocate(capacity: self.capacity)
    }

    deinit { buffer.deallocate() }

    var isFull: Bool { count >= capacity }

    /// Squared chord of the worst kept hit (meaningful once full).
    var worstChord: Double { count > 0 ? buffer[0].chord : .infinity }

    /// Keeps the hit if it is among the k best seen.
    mutating func offer(_ hit: GridHit, chord: Double) {
        if count < capacity {
            (buffer + count).initialize(to: Candidate(hit: hit, chord: chord))
            count += 1
            siftUp(count - 1)
        } else if order.less(hit, buffer[0].hit) {
            buffer[0] = Candidate(hit: hit, chord: chord)
            siftDown(0)
        }
    }

    /// The kept hits, best first.
    consuming func sorted() -> [GridHit] {
        // Popping the max-heap fills the answer from its end: k·log k, no comparison closure for a generic sort.
        let n = count
        let result = [GridHit](unsafeUninitializedCapacity: n) { out, initialized in
            var remaining = n
            while remaining > 0 {
                out.initializeElement(at: remaining - 1, to: buffer[0].hit)
                remaining -= 1
                count = remaining
                if remaining > 0 {
                    buffer[0] = buffer[remaining]
                    siftDown(0)
                }
            }
            initialized = n
        }
        return result
    }

    private mutating func siftUp(_ start: Int) {
        var i = start
        let item = buffer[i]
        while i > 0 {
            let parent = (i - 1) >> 1
            guard order.less(buffer[parent].hit, item.hit) else { break }
            buffer[i] = buffer[parent]
            i = parent
        }
        buffer[i] = item
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        let item = buffer[i]
        while true {
            let l = 2 * i + 1
            guard l < count else { break }
            let r = l + 1
            let child = r < count && order.less(buffer[l].hit, buffer[r].hit) ? r : l
            guard order.less(item.hit, buffer[child].hit) else { break }
            buffer[i] = buffer[child]
            i = child
        }
        buffer[i] = item
    }
}
