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
        index.apply(PlaceChanges(upserted: [summary("stale", 0, 0)], deleted: [], revision: 4))
        #expect(index.nearby(try query(0, 0)).map(\.id) == ["c"])
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
}
