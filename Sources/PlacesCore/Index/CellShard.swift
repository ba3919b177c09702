/// Some cells of the map's grid and what the index keeps for each, sorted by key in two arrays (keys and records) and
/// found by binary search: a shard of `MapCells` or `RatingCells`.
///
/// Dictionaries, at most three quarters full and doubling as they grew, took twice what their cells held or more
/// (the map's counts: 63 bytes a place at 1M generated places, 29 so); arrays made to measure at a load take what
/// the cells hold, and a change inserts or removes in place (a shard holds a few hundred cells).
struct CellShard<Record: Sendable>: Sendable {
    private var keys: [UInt64] = []
    private var records: [Record] = []

    /// An empty shard.
    init() {}

    /// A shard of these cells (each key once, in any order), in arrays of their size.
    init(measured cells: [(key: UInt64, record: Record)]) {
        let sorted = cells.sorted { $0.key < $1.key }
        keys.reserveCapacity(sorted.count)
        records.reserveCapacity(sorted.count)
        for cell in sorted {
            keys.append(cell.key)
            records.append(cell.record)
        }
    }

    /// `MapCells.shardCount` shards holding these cells (each key once, in any order), each in its `MapCells.shard`.
    static func sharded(_ cells: [(key: UInt64, record: Record)]) -> [CellShard] {
        var byShard = Array(repeating: [(key: UInt64, record: Record)](), count: MapCells.shardCount)
        for cell in cells { byShard[MapCells.shard(cell.key)].append(cell) }
        return byShard.map(CellShard.init(measured:))
    }

    /// Where `key` is, or where it would go.
    private func position(_ key: UInt64) -> (found: Bool, index: Int) {
        keys.withUnsafeBufferPointer { keys in
            var low = 0
            var high = keys.count
            while low < high {
                let middle = (low + high) / 2
                if keys[middle] < key { low = middle + 1 } else { high = middle }
            }
            return (low < keys.count && keys[low] == key, low)
        }
    }

    /// The cell's record; setting nil forgets the cell.
    subscript(key: UInt64) -> Record? {
        get {
            let at = position(key)
            return at.found ? records[at.index] : nil
        }
        set {
            let at = position(key)
            switch (at.found, newValue) {
            case (true, let record?): records[at.index] = record
            case (true, nil):
                keys.remove(at: at.index)
                records.remove(at: at.index)
            case (false, let record?):
                keys.insert(key, at: at.index)
                records.insert(record, at: at.index)
            case (false, nil): break
            }
        }
    }

    /// Bytes held, by capacity (see `HeapCensus`).
    var memoryBytes: Int { HeapCensus.array(keys) + HeapCensus.array(records) }
}
