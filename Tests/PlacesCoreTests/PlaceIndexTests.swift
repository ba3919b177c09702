import Dispatch
import GeoIndex
import Testing

@testable import PlacesCore

@Suite("Place index")
struct PlaceIndexTests {
    func summary(_ id: String, _ lat: Double, _ lon: Double, _ kind: PlaceKind = .gem) -> PlaceSummary {
        PlaceSummary(id: id, kind: kind, name: "Place \(id)", coordinate: Coordinate(latitude: lat, longitude: lon))
    }

    func query(_ lat: Double, _ lon: Double, miles: Double = 5, limit: Int = 50, kind: PlaceKind? = nil) throws -> NearbyQuery {
        try NearbyQuery(center: Coordinate(latitude: lat, longitude: lon), radiusMiles: miles, limit: limit, kind: kind)
    }

    @Test func answersNearestFirstWithinTheRadius() throws {
        let index = PlaceIndex()
        index.replaceAll(
            PlaceSnapshot(
                summaries: [
                    summary("far", 0, 0.2), summary("near", 0, 0.01), summary("mid", 0, 0.05), summary("out", 0, 1),
                ],
                revision: 1
            )
        )
        let places = index.nearby(try query(0, 0, miles: 20))
        #expect(places.map(\.id) == ["near", "mid", "far"])
        #expect(
            abs(places[0].distanceMeters - Geodesy.distanceMeters(Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 0.01)))
                < 1e-6
        )
        #expect(abs(places[0].distanceMiles * Geodesy.metersPerMile - places[0].distanceMeters) < 1e-9)
        #expect(abs(places[0].distanceKm * 1_000 - places[0].distanceMeters) < 1e-9)
    }

    @Test func equalDistancesAreOrderedByID() throws {
        let index = PlaceIndex()
        // Same coordinate, so the same distance: ids decide, whatever the load order.
        index.replaceAll(PlaceSnapshot(summaries: [summary("b", 1, 1), summary("c", 1, 1), summary("a", 1, 1)], revision: 1))
        #expect(index.nearby(try query(1, 1.01)).map(\.id) == ["a", "b", "c"])
        #expect(index.nearby(try query(1, 1.01, limit: 2)).map(\.id) == ["a", "b"])
    }

    @Test func kindFilterAndLimit() throws {
        let index = PlaceIndex()
        index.replaceAll(
            PlaceSnapshot(
                summaries: (0..<10).map {
                    summary("p\($0)", 0, Double($0) * 0.001, $0.isMultiple(of: 2) ? .gem : .restaurant)
                },
                revision: 1
            )
        )
        #expect(index.nearby(try query(0, 0, kind: .restaurant)).map(\.id) == ["p1", "p3", "p5", "p7", "p9"])
        #expect(index.nearby(try query(0, 0, limit: 3, kind: .gem)).map(\.id) == ["p0", "p2", "p4"])
    }

    @Test func changesApplyInOrderAndOldRevisionsAreIgnored() throws {
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: [summary("a", 0, 0), summary("b", 0, 0.01)], revision: 3))
        index.apply(PlaceChanges(upserted: [summary("c", 0, 0.005), summary("a", 10, 10)], deleted: ["b"], revision: 4))
        #expect(index.revision == 4)
        #expect(index.count == 2)
        #expect(index.nearby(try query(0, 0)).map(\.id) == ["c"])
        #expect(index.nearby(try query(10, 10)).map(\.id) == ["a"])
        index.apply(PlaceChanges(upserted: [summary("stale", 0, 0)], deleted: [], revision: 3))
        #expect(index.nearby(try query(0, 0)).map(\.id) == ["c"], "a change set read before the index's revision is ignored")
        // At the same revision, places re-read above the horizon (a write of this instance) still apply.
        index.apply(PlaceChanges(upserted: [summary("reread", 0, 0)], deleted: [], revision: 4))
        #expect(index.nearby(try query(0, 0)).map(\.id) == ["reread", "c"])
        #expect(index.revision == 4)
    }

    @Test func renamesShowWithoutMoving() throws {
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: [summary("a", 0, 0)], revision: 1))
        var renamed = summary("a", 0, 0)
        renamed.name = "New name"
        index.apply(PlaceChanges(upserted: [renamed], deleted: [], revision: 2))
        #expect(index.nearby(try query(0, 0)).first?.name == "New name")
        #expect(index.count == 1)
    }

    /// A query held open inside the index (its scan is paused) does not hold up a write: the write completes, a second
    /// query sees it, and the held query then answers from the version it started with. Under a readers–writer lock the
    /// write would wait for the held query; the bounded wait turns that deadlock into a failure instead of a hang.
    @Test func aWriteCompletesWhileAQueryIsHeldOpen() throws {
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: [summary("a", 0, 0.001), summary("gone", 0, 0.002)], revision: 1))
        let near = try query(0, 0)
        let written = DispatchSemaphore(value: 0)
        var writeFinished = false
        var seenAfterWrite: [String] = []
        let held = index.nearby(near) {
            DispatchQueue.global().async {
                index.apply(PlaceChanges(upserted: [summary("b", 0, 0.0005)], deleted: ["gone"], revision: 2))
                written.signal()
            }
            writeFinished = written.wait(timeout: .now() + 60) == .success
            if writeFinished { seenAfterWrite = index.nearby(near).map(\.id) }
        }
        #expect(writeFinished, "the write waited for the query held open")
        #expect(seenAfterWrite == ["b", "a"])
        #expect(held.map(\.id) == ["a", "gone"])
        #expect(index.revision == 2)
    }

    /// Many readers beside one writer that keeps moving places: every answer is a consistent version (no duplicates,
    /// ordered, the places that never move always there), and the end state has every write.
    @Test func readersSeeConsistentVersionsWhileAWriterMovesPlaces() async throws {
        let index = PlaceIndex()
        var random = SplitMix64(seed: 5)
        let fixed = (0..<200).map { summary("fixed-\($0)", .random(in: -0.01...0.01, using: &random), .random(in: -0.01...0.01, using: &random)) }
        index.replaceAll(PlaceSnapshot(summaries: fixed, revision: 1))
        let center = try query(0, 0, miles: 2, limit: 500)
        let problems = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                var random = SplitMix64(seed: 6)
                for round in 0..<300 {
                    let lat = Double.random(in: -0.015...0.015, using: &random)
                    let moving = summary("moving-\(round % 50)", lat, .random(in: -0.015...0.015, using: &random))
                    index.apply(PlaceChanges(upserted: [moving], deleted: [], revision: Int64(round + 2)))
                }
                return 0
            }
            for _ in 0..<3 {
                group.addTask {
                    var problems = 0
                    for _ in 0..<200 {
                        let places = index.nearby(center)
                        if Set(places.map(\.id)).count != places.count { problems += 1 }
                        if zip(places, places.dropFirst()).contains(where: { $0.distanceMeters > $1.distanceMeters }) { problems += 1 }
                        if places.filter({ $0.id.hasPrefix("fixed-") }).count != fixed.count { problems += 1 }
                    }
                    return problems
                }
            }
            var problems = 0
            for await count in group { problems += count }
            return problems
        }
        #expect(problems == 0)
        #expect(index.count == 250)
        #expect(index.revision == 301)
    }

    @Test func summariesAreFoundByIDAfterChanges() throws {
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: (0..<3_000).map { summary("p\($0)", 0, Double($0) * 0.0001) }, revision: 1))
        index.apply(PlaceChanges(upserted: [summary("new", 1, 1), summary("p7", 2, 2)], deleted: ["p8"], revision: 2))
        let found = index.summaries(["p0", "p7", "p8", "new", "p2999", "nobody"])
        #expect(Set(found.keys) == ["p0", "p7", "new", "p2999"])
        #expect(found["p7"]?.coordinate == Coordinate(latitude: 2, longitude: 2))
        #expect(index.count == 3_000)
    }
}
