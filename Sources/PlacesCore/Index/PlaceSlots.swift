/// Each indexed place's slot by id: open-addressing tables of 4-byte slots, in shards of at most about a thousand ids,
/// so a copy-on-write change copies one shard rather than a million-entry table.
///
/// A bucket holds a slot, not the id: the id is in the place's entry already (its JSON), so a lookup compares the ids
/// of the places its probe meets (`IndexedPlace.hasID`). Dictionaries of `String` to slot took 20-byte buckets, at most
/// three quarters full, about 32 bytes an id at a million places; these take 4-byte buckets, at most three quarters
/// full (empty and forgotten buckets both count), about 6 bytes an id. Every method that probes takes the table's
/// places, whose entries hold the ids: a slot is inserted after its place is in `places`, and removed before its
/// place leaves them.
struct PlaceSlots: Sendable {
    private static var minimumShardCount: Int { 1_024 }
    /// The ids a shard is sized for at a load.
    private static var idsPerShard: Int { 640 }
    /// A bucket never used.
    private static var empty: UInt32 { 0 }
    /// A bucket whose id was forgotten: a probe goes on past it.
    private static var forgotten: UInt32 { .max }

    /// A table of buckets, each empty, forgotten, or a slot plus one.
    private struct Shard: Sendable {
        var buckets: [UInt32]
        /// Buckets that hold a slot.
        var held = 0
        /// Buckets forgotten since the last growth.
        var forgotten = 0

        init(capacity: Int) {
            var size = 8
            while size * 3 / 4 < capacity { size *= 2 }
            buckets = [UInt32](repeating: PlaceSlots.empty, count: size)
        }
    }

    private var shards: [Shard]

    /// Makes an empty table with room for about `capacity` ids.
    init(capacity: Int = 0) {
        let count = max(PlaceSlots.minimumShardCount, (capacity + PlaceSlots.idsPerShard - 1) / PlaceSlots.idsPerShard)
        // Room for the shard's share, not more: more would double its buckets.
        let perShard = capacity / count
        shards = (0..<count).map { _ in Shard(capacity: perShard) }
    }

    /// The slot of the place with this id.
    func slot(of id: String, in places: ChunkedArray<IndexedPlace?>) -> UInt32? {
        let hash = UInt(bitPattern: id.hashValue)
        let shard = shards[shardIndex(hash)]
        return Self.find(id, hash: hash, in: shard, places).map { shard.buckets[$0] - 1 }
    }

    /// Records the slot of a place whose id the table does not hold yet; its entry is already in `places`.
    mutating func insert(_ slot: UInt32, for id: String, in places: ChunkedArray<IndexedPlace?>) {
        let hash = UInt(bitPattern: id.hashValue)
        let index = shardIndex(hash)
        if (shards[index].held + shards[index].forgotten + 1) * 4 > shards[index].buckets.count * 3 {
            shards[index] = Self.regrown(shards[index], places)
        }
        Self.place(slot, hash: hash, in: &shards[index])
    }

    /// Forgets an id; its slot, if it had one. Its place is still in `places`.
    mutating func remove(_ id: String, in places: ChunkedArray<IndexedPlace?>) -> UInt32? {
        let hash = UInt(bitPattern: id.hashValue)
        let index = shardIndex(hash)
        guard let bucket = Self.find(id, hash: hash, in: shards[index], places) else { return nil }
        let slot = shards[index].buckets[bucket] - 1
        shards[index].buckets[bucket] = Self.forgotten
        shards[index].held -= 1
        shards[index].forgotten += 1
        return slot
    }

    /// The bytes its shards take: the list of shards and each shard's buckets (by their count, which is what each
    /// table asked the allocator for: an array's capacity may report more when the allocator handed back a larger
    /// chunk than asked, which `HeapCensus.chunk` already rounds to).
    func memoryBytes(_ census: inout HeapCensus) -> Int {
        var total = HeapCensus.array(shards)
        for shard in shards { total += HeapCensus.array(capacity: shard.buckets.count, stride: MemoryLayout<UInt32>.stride) }
        return total
    }

    private func shardIndex(_ hash: UInt) -> Int {
        Int(hash % UInt(shards.count))
    }

    /// The bucket holding the slot of `id`, or nil.
    private static func find(_ id: String, hash: UInt, in shard: Shard, _ places: ChunkedArray<IndexedPlace?>) -> Int? {
        shard.buckets.withUnsafeBufferPointer { buckets in
            let mask = buckets.count - 1
            var bucket = Int(truncatingIfNeeded: hash.byteSwapped) & mask
            while true {
                let held = buckets[bucket]
                if held == Self.empty { return nil }
                if held != Self.forgotten, places[Int(held - 1)]?.hasID(id) == true { return bucket }
                bucket = (bucket + 1) & mask
            }
        }
    }

    /// Puts a slot in the first free bucket of its probe.
    private static func place(_ slot: UInt32, hash: UInt, in shard: inout Shard) {
        let mask = shard.buckets.count - 1
        var bucket = Int(truncatingIfNeeded: hash.byteSwapped) & mask
        while shard.buckets[bucket] != Self.empty && shard.buckets[bucket] != Self.forgotten {
            bucket = (bucket + 1) & mask
        }
        if shard.buckets[bucket] == Self.forgotten { shard.forgotten -= 1 }
        shard.buckets[bucket] = slot + 1
        shard.held += 1
    }

    /// The shard's slots in a new table with room for twice as many (or as many, when forgotten buckets filled it).
    private static func regrown(_ shard: Shard, _ places: ChunkedArray<IndexedPlace?>) -> Shard {
        var grown = Shard(capacity: max(shard.held * 2, 6))
        for held in shard.buckets where held != Self.empty && held != Self.forgotten {
            let slot = held - 1
            let hash = UInt(bitPattern: (places[Int(slot)]?.id ?? "").hashValue)
            place(slot, hash: hash, in: &grown)
        }
        return grown
    }
}
