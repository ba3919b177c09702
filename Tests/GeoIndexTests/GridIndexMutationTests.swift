import Testing

@testable import GeoIndex

/// Writes (insert, remove, move, apply, build), tie ordering, and copies that stay snapshots while the original changes.
@Suite("GridIndex updates")
struct GridIndexMutationTests {
    let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)

    @Test func insertRemoveMove() {
        var grid = GridIndex()
        let a = destination(from: paris, meters: 100, bearing: 10)
        let b = destination(from: paris, meters: 300, bearing: 200)
        grid.insert(key: 1, at: a)
        grid.insert(key: 2, at: b)
        #expect(grid.count == 2)
        #expect(grid.within(paris, radiusMeters: 500).map(\.key) == [1, 2])
        let movedOne = grid.move(key: 1, from: a, to: destination(from: paris, meters: 400, bearing: 90))
        #expect(movedOne)
        #expect(grid.within(paris, radiusMeters: 500).map(\.key) == [2, 1])
        let movedAbsent = grid.move(key: 9, from: a, to: b)
        #expect(!movedAbsent)
        let removed = grid.remove(key: 2, at: b)
        let removedAgain = grid.remove(key: 2, at: b)
        #expect(removed && !removedAgain)
        #expect(grid.count == 1)
        #expect(grid.within(paris, radiusMeters: 500).map(\.key) == [1])
        #expect(grid.memoryBytes > 0)
    }

    @Test func applyAndBuildMatchBruteForce() {
        var rng = SplitMix64(seed: 21)
        var points: [UInt32: Coordinate] = [:]
        for key in UInt32(0)..<600 { points[key] = rng.near(paris, within: 5_000) }
        var grid = GridIndex()
        grid.build(points.map { ($0.key, $0.value) })
        var changes: [GridChange] = []
        for key in UInt32(0)..<200 {
            guard let old = points[key] else { continue }
            if key % 2 == 0 {
                let new = rng.near(paris, within: 5_000)
                changes.append(.move(key: key, from: old, to: new))
                points[key] = new
            } else {
                changes.append(.remove(key: key, at: old))
                points[key] = nil
            }
        }
        for key in UInt32(1_000)..<1_100 {
            let new = rng.near(paris, within: 5_000)
            changes.append(.insert(key: key, at: new))
            points[key] = new
        }
        grid.apply(changes)
        #expect(grid.count == points.count)
        let entries = points.map { (key: $0.key, coordinate: $0.value) }
        for radius in [500.0, 2_000, 8_000] {
            expectMatchesBruteForce(grid.within(paris, radiusMeters: radius), points: entries, center: paris, radius: radius)
            expectMatchesBruteForce(grid.within(paris, radiusMeters: radius, limit: 25), points: entries, center: paris, radius: radius, limit: 25)
        }
        grid.build([(7, paris)])
        #expect(grid.count == 1)
        #expect(grid.within(paris, radiusMeters: 1e7).map(\.key) == [7])
    }

    @Test("ties follow the tie-break, also when a limit cuts through them", arguments: [nil, 3] as [Int?])
    func ties(limit: Int?) {
        var grid = GridIndex()
        let spot = destination(from: paris, meters: 250, bearing: 45)
        for key in UInt32(10)..<16 { grid.insert(key: key, at: spot) }
        grid.insert(key: 99, at: paris)
        let names: [UInt32: String] = [10: "m", 11: "b", 12: "z", 13: "a", 14: "q", 15: "c", 99: "zz"]
        let byName: (UInt32, UInt32) -> Bool = { (names[$0] ?? "") < (names[$1] ?? "") }
        let hits = grid.within(paris, radiusMeters: 1_000, limit: limit, tieBreak: byName)
        let expected: [UInt32] = [99, 13, 11, 15, 10, 14, 12]
        #expect(hits.map(\.key) == Array(expected.prefix(limit ?? expected.count)))
        let ascending = grid.within(paris, radiusMeters: 1_000, limit: limit)
        #expect(ascending.map(\.key) == Array([99, 10, 11, 12, 13, 14, 15].prefix(limit ?? 7)))
    }

    @Test("filter applies before the limit")
    func filterBeforeLimit() {
        var grid = GridIndex()
        for key in UInt32(0)..<20 { grid.insert(key: key, at: destination(from: paris, meters: Double(key) * 10 + 5, bearing: 0)) }
        let hits = grid.within(paris, radiusMeters: 1_000, limit: 4, where: { $0 % 3 == 0 })
        #expect(hits.map(\.key) == [0, 3, 6, 9])
    }

    @Test("a copy is a snapshot: changes to one copy never show in another")
    func copiesAreSnapshots() {
        var rng = SplitMix64(seed: 5)
        let fixed = (UInt32(0)..<200).map { (key: $0, coordinate: rng.near(paris, within: 1_000)) }
        var grid = GridIndex()
        grid.build(fixed)
        let snapshot = grid
        let before = snapshot.within(paris, radiusMeters: 2_000)
        var moved: [UInt32: Coordinate] = [:]
        for key in UInt32(0)..<50 {
            let to = rng.near(paris, within: 1_500)
            let didMove = grid.move(key: key, from: moved[key] ?? fixed[Int(key)].coordinate, to: to)
            #expect(didMove)
            moved[key] = to
        }
        grid.insert(key: 1_000, at: paris)
        let removed = grid.remove(key: 199, at: fixed[199].coordinate)
        #expect(removed)
        #expect(snapshot.count == 200)
        #expect(snapshot.within(paris, radiusMeters: 2_000) == before)
        #expect(grid.count == 200)
        #expect(grid.within(paris, radiusMeters: 1).map(\.key) == [1_000])
        #expect(!grid.within(paris, radiusMeters: 2_000).contains { $0.key == 199 })
    }
}
