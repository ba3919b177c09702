/// Each indexed place's slot by id, in shards of at most about a thousand entries, so a copy-on-write change copies
/// one shard rather than a million-entry dictionary.
///
/// A dictionary's buckets are a power of two, at most three quarters full: shards of 977 ids (a million in 1,024)
/// took 2,048 buckets of 20 bytes each, 42 bytes an id. So a load sizes the shards for 640 ids each, 1,024 buckets
/// (room for 768), about 32 bytes an id; 1,024 shards at least.
struct PlaceSlots: Sendable {
    private static var minimumShardCount: Int { 1_024 }
    /// The ids a shard is sized for at a load.
    private static var idsPerShard: Int { 640 }
    private var shards: [[String: UInt32]]

    /// Makes an empty table with room for about `capacity` ids.
    init(capacity: Int = 0) {
        let count = max(PlaceSlots.minimumShardCount, (capacity + PlaceSlots.idsPerShard - 1) / PlaceSlots.idsPerShard)
        // Room for the shard's share, not more: more would double its buckets.
        let perShard = capacity / count
        shards = (0..<count).map { _ in
            var shard: [String: UInt32] = [:]
            shard.reserveCapacity(perShard)
            return shard
        }
    }

    /// The slot of the place with this id.
    subscript(id: String) -> UInt32? {
        get { shards[shard(id)][id] }
        set { shards[shard(id)][id] = newValue }
    }

    /// Forgets an id; its slot, if it had one.
    mutating func removeValue(forKey id: String) -> UInt32? {
        shards[shard(id)].removeValue(forKey: id)
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

    private func shard(_ id: String) -> Int {
        Int(UInt(bitPattern: id.hashValue) % UInt(shards.count))
    }
}
