import GeoIndex
import Testing

@testable import PlacesCore

/// The index's slots by id (open-addressing tables that compare the ids of the entries they point at) find every live
/// place and no deleted one, through loads, growth, deletions and ids that the JSON escapes.
@Suite("Place slots")
struct PlaceSlotsTests {
    static func summary(_ id: String, _ i: Int) -> PlaceSummary {
        PlaceSummary(id: id, kind: .gem, name: "Place \(i)", coordinate: Coordinate(latitude: 10 + Double(i % 100) / 1_000, longitude: 20))
    }

    static func id(_ i: Int) -> String {
        // Short ids, ids longer than 15 bytes, and ids with characters the JSON escapes.
        switch i % 3 {
        case 0: "p\(i)"
        case 1: "a-much-longer-identifier-\(i)"
        default: "quote\"back\\slash\n\(i)"
        }
    }

    /// Every id the table should hold has its place's slot, and every other id none.
    static func check(_ table: PlaceTable, live: Set<Int>, gone: Set<Int>) {
        for i in live {
            let slot = table.slots.slot(of: id(i), in: table.places)
            #expect(slot.flatMap { table.places[Int($0)]?.id } == id(i))
        }
        for i in gone { #expect(table.slots.slot(of: id(i), in: table.places) == nil) }
        #expect(table.live == live.count)
    }

    @Test func aLoadedTableFindsEveryPlace() {
        let table = PlaceTable(PlaceSnapshot(summaries: (0..<3_000).map { Self.summary(Self.id($0), $0) }, revision: 1))
        Self.check(table, live: Set(0..<3_000), gone: Set(3_000..<3_100))
    }

    @Test func slotsGrowAndForgetThroughChanges() {
        // From empty: every shard starts at 8 buckets and grows as places arrive one change set at a time.
        var table = PlaceTable()
        var live = Set<Int>()
        var gone = Set<Int>()
        var revision: Int64 = 0
        for round in 0..<6 {
            let added = (round * 1_500)..<((round + 1) * 1_500)
            // Every third live place leaves; some that left come back.
            let leaving = live.filter { $0 % 3 == round % 3 }
            let returning = gone.filter { $0 % 5 == 0 }
            revision += 1
            table.apply(
                PlaceChanges(
                    upserted: (Array(added) + Array(returning)).map { Self.summary(Self.id($0), $0) },
                    deleted: leaving.map(Self.id),
                    revision: revision
                )
            )
            live.subtract(leaving)
            live.formUnion(added)
            live.formUnion(returning)
            gone.formUnion(leaving)
            gone.subtract(returning)
            Self.check(table, live: live, gone: gone)
        }
        // An update keeps its slot.
        let before = table.slots.slot(of: Self.id(live.first!), in: table.places)
        table.apply(PlaceChanges(upserted: [Self.summary(Self.id(live.first!), 7)], deleted: [], revision: revision + 1))
        #expect(table.slots.slot(of: Self.id(live.first!), in: table.places) == before)
    }
}
