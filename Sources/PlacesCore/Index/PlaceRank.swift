/// Where a place stands in the map's order, best `score` first and then by id, kept beside the index for each slot so
/// a viewport's k best are picked without reading a million places' summaries.
///
/// The id's first eight bytes decide nearly every tie of score (ids are ASCII, so their bytes sort as the ids do);
/// only equal prefixes read the ids themselves. 16 bytes a place.
struct PlaceRank: RankOrder {
    /// The place's score (`RatingAggregate.score`).
    let score: Double
    /// The id's first eight bytes, big-endian, zero-padded.
    let idPrefix: UInt64

    init(_ summary: PlaceSummary) {
        self.init(score: summary.rating.score, id: summary.id)
    }

    init(score: Double, id: String) {
        self.score = score
        var prefix: UInt64 = 0
        var taken = 0
        for byte in id.utf8.prefix(8) {
            prefix = prefix << 8 | UInt64(byte)
            taken += 1
        }
        idPrefix = prefix << (8 * UInt64(8 - taken))
    }

    /// The place's position in the order: its score and its id.
    struct Position: Sendable, Hashable {
        var score: Double
        var id: String
    }

    /// True when `a` comes before `b`: a better score, or the same score and a smaller id (`aID` and `bID` give the
    /// ids, read only when the prefixes tie).
    @inline(__always)
    static func precedes(_ a: PlaceRank, _ b: PlaceRank, aID: () -> String, bID: () -> String) -> Bool {
        if a.score != b.score { return a.score > b.score }
        if a.idPrefix != b.idPrefix { return a.idPrefix < b.idPrefix }
        return aID() < bID()
    }
}

/// Where a place stands in an order by a value, then by distance, then by id: the best value first (a search's
/// relevance, or the place's score for nearby's `sort=score`), then the nearest (0 for all when there is no centre),
/// then by id.
struct ScoredRank: RankOrder {
    var value: Double
    var distance: Double
    /// The id's first eight bytes (see `PlaceRank.idPrefix`).
    var idPrefix: UInt64

    @inline(__always)
    static func precedes(_ a: ScoredRank, _ b: ScoredRank, aID: () -> String, bID: () -> String) -> Bool {
        if a.value != b.value { return a.value > b.value }
        if a.distance != b.distance { return a.distance < b.distance }
        if a.idPrefix != b.idPrefix { return a.idPrefix < b.idPrefix }
        return aID() < bID()
    }
}

/// An order of places whose ties are broken by id, read only when what a rank holds of it ties too.
protocol RankOrder: Sendable {
    /// True when `a` comes before `b` (`aID` and `bID` give their ids, read only when the ranks cannot tell).
    static func precedes(_ a: Self, _ b: Self, aID: () -> String, bID: () -> String) -> Bool
}

/// The `k` first slots in an order among those offered, kept in a heap whose root is the last of them.
struct BestRanked<Rank: RankOrder> {
    let k: Int
    private(set) var heap: [(slot: UInt32, rank: Rank)] = []
    private let id: (UInt32) -> String

    init(k: Int, id: @escaping (UInt32) -> String) {
        self.k = k
        self.id = id
        heap.reserveCapacity(k)
    }

    /// True when `a` comes before `b`.
    @inline(__always)
    private func precedes(_ a: (slot: UInt32, rank: Rank), _ b: (slot: UInt32, rank: Rank)) -> Bool {
        Rank.precedes(a.rank, b.rank, aID: { id(a.slot) }, bID: { id(b.slot) })
    }

    /// Offers a slot: kept when it is among the k first so far.
    mutating func offer(_ slot: UInt32, _ rank: Rank) {
        let item = (slot: slot, rank: rank)
        if heap.count < k {
            heap.append(item)
            siftUp(heap.count - 1)
        } else if k > 0, precedes(item, heap[0]) {
            heap[0] = item
            siftDown(0)
        }
    }

    /// True when an offer of this slot and rank would be kept (it comes before the last kept, or fewer are kept).
    @inline(__always)
    func wouldKeep(_ slot: UInt32, _ rank: Rank) -> Bool {
        guard heap.count == k else { return k > 0 }
        return precedes((slot, rank), heap[0])
    }

    /// The last rank kept, once `k` are kept (what an offer must come before to be kept).
    var last: Rank? { heap.count == k && k > 0 ? heap[0].rank : nil }

    /// The slots kept, first first.
    func sorted() -> [UInt32] {
        sortedEntries().map(\.slot)
    }

    /// The slots kept with their ranks, first first.
    func sortedEntries() -> [(slot: UInt32, rank: Rank)] {
        heap.sorted { precedes($0, $1) }
    }

    // The root is the item that comes last: a child never comes after its parent.
    private mutating func siftUp(_ start: Int) {
        var i = start
        while i > 0 {
            let parent = (i - 1) / 2
            guard precedes(heap[parent], heap[i]) else { return }
            heap.swapAt(parent, i)
            i = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            let left = 2 * i + 1
            guard left < heap.count else { return }
            var last = left
            if left + 1 < heap.count, precedes(heap[left], heap[left + 1]) { last = left + 1 }
            guard precedes(heap[i], heap[last]) else { return }
            heap.swapAt(i, last)
            i = last
        }
    }
}
