import Testing

@testable import PlacesCore

/// A shard of cells (sorted arrays found by binary search) holds what a dictionary would through inserts, updates and
/// removals, and counts its own bytes: two arrays of its cells' size after a load.
@Suite("Cell shards")
struct CellShardTests {
    @Test func aShardAgreesWithADictionary() {
        var rng = SystemRandomNumberGenerator()
        var oracle: [UInt64: Int] = [:]
        for _ in 0..<200 { oracle[UInt64.random(in: 0..<500, using: &rng)] = Int.random(in: 0..<1_000, using: &rng) }
        var shard = CellShard(measured: oracle.map { (key: $0.key, record: $0.value) })
        for step in 0..<3_000 {
            let key = UInt64.random(in: 0..<500, using: &rng)
            let value: Int? = step % 3 == 0 ? nil : step
            oracle[key] = value
            shard[key] = value
            #expect(shard[key] == value)
        }
        for key in UInt64(0)..<500 { #expect(shard[key] == oracle[key]) }
    }

    @Test func aLoadedShardTakesTheSizeOfItsCells() {
        let shard = CellShard(measured: (0..<100).map { (key: UInt64(1_000 - $0), record: Double($0)) })
        // Two arrays reserved for its 100 cells (the allocator may hand back a few bytes more than asked, never a
        // doubling's worth).
        #expect(shard.memoryBytes >= 2 * HeapCensus.array(capacity: 100, stride: 8))
        #expect(shard.memoryBytes < 2 * HeapCensus.array(capacity: 128, stride: 8))
        #expect(shard[901] == 99)
        #expect(shard[900] == nil)
        #expect(CellShard<Double>().memoryBytes == 0)
    }
}
