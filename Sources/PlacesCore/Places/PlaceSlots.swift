/// Each indexed place's slot by id, in 1,024 shards, so a copy-on-write change copies one shard of about a
/// thousand entries rather than a million-entry dictionary.
struct PlaceSlots: Sendable {
    private static var shardCount: Int { 1_024 }
    private var shards: [[String: UInt32]]

    /// Makes an empty table with room for about `capacity` ids.
    init(capacity: Int = 0) {
        let perShard = capacity / PlaceSlots.shardCount + capacity / (4 * PlaceSlots.shardCount)
        shards = (0..<PlaceSlots.shardCount).map { _ in
            var shard: [String: UInt32] = [:]
            shard.reserveCapacity(perShard)
            return shard
        }
    }

    /// The slot of the place with this id.
    subscript(id: String) -> UInt32? {
        get { shards[PlaceSlots.shard(id)][id] }
        set { shards[PlaceSlots.shard(id)][id] = newValue }
    }

    /// Forgets an id; its slot, if it had one.
    mutating func removeValue(forKey id: String) -> UInt32? {
        shards[PlaceSlots.shard(id)].removeValue(forKey: id)
    }

    /// The bytes its shards take: the list of shards, each shard's table, and the ids' storage that `census` has not
    /// counted yet (an id longer than 15 bytes shares its storage with the place's summary).
    func memoryBytes(_ census: inout HeapCensus) -> Int {
        var total = HeapCensus.array(shards)
        for shard in shards {
            total += HeapCensus.dictionary(shard)
            for id in shard.keys { total += census.string(id) }
        }
        return total
    }

    private static func shard(_ id: String) -> Int {
        id.hashValue & (shardCount - 1)
    }
}
