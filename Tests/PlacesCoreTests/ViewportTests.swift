import Foundation
import GeoIndex
import PlacesTestSupport
import Testing

@testable import PlacesCore

/// `within`: the places in a box, best score first then by id, paged, against a brute force over the same places.
@Suite("Viewport")
struct ViewportTests {
    /// Places around the antimeridian, a city and the poles, with ratings that tie often (many unrated, scoring 3).
    static func places(count: Int, seed: UInt64) -> [PlaceSummary] {
        var rng = SplitMix64(seed: seed)
        let centres = [(37.77, -122.42), (-17.8, 179.95), (-17.8, -179.95), (89.9, 0), (0, 0)]
        return (0..<count).map { i in
            let (lat, lon) = centres[i % centres.count]
            // Ids of unequal length sharing long prefixes, so the prefix tie-break is exercised.
            var summary = PlaceSummary(
                id: i % 3 == 0 ? "place-\(i)" : "place-long-common-prefix-\(i % 97)-\(i)",
                kind: i % 2 == 0 ? .gem : .restaurant,
                name: "Place \(i)",
                coordinate: rng.coordinate(near: Coordinate(latitude: lat, longitude: lon), latitudeSpread: 0.5, longitudeSpread: 0.5)
            )
            let count = [0, 0, 1, 3, 10][Int.random(in: 0..<5, using: &rng)]
            summary.rating = RatingAggregate(count: count, sum: count * Int.random(in: 1...5, using: &rng))
            return summary
        }
    }

    /// The brute force: every place in the box passing the filter, in the viewport's order.
    static func bruteForce(_ places: [PlaceSummary], _ box: GeoBox, kind: PlaceKind?) -> [String] {
        places.filter { box.contains($0.coordinate) && (kind == nil || $0.kind == kind) }
            .sorted { $0.rating.score != $1.rating.score ? $0.rating.score > $1.rating.score : $0.id < $1.id }
            .map(\.id)
    }

    /// Every page of the query, followed by its cursors.
    static func allPages(_ index: PlaceIndex, _ first: ViewportQuery) throws -> [String] {
        var ids: [String] = []
        var query = first
        while true {
            let answer = index.within(query)
            #expect(answer.ids.count <= query.limit)
            ids += answer.ids
            guard let cursor = answer.nextCursor else { return ids }
            query = try ViewportQuery.parse(bbox: Self.text(first.box), limit: String(first.limit), cursor: cursor, filter: first.filter)
        }
    }

    static func text(_ box: GeoBox) -> String { "\(box.west),\(box.south),\(box.east),\(box.north)" }

    @Test("pages add up to the brute force's order, across the antimeridian too")
    func pagesMatchBruteForce() throws {
        let places = Self.places(count: 3_000, seed: 5)
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: places, revision: 1))
        let boxes = [
            GeoBox(west: -122.6, south: 37.6, east: -122.3, north: 37.9),
            GeoBox(west: 179.9, south: -18, east: -179.9, north: -17.5),
            GeoBox(west: 170, south: -30, east: -170, north: 0),
            GeoBox(west: -180, south: 85.05, east: 180, north: 90),
            GeoBox(west: -180, south: -90, east: 180, north: 90),
            GeoBox(west: 0.1, south: -0.1, east: 0.1, north: 0.1),
        ]
        for (i, box) in boxes.enumerated() {
            for kind in [nil, PlaceKind.restaurant] {
                let query = try ViewportQuery(box: box, filter: PlaceFilter(kind: kind), limit: [7, 50, 500][i % 3])
                let expected = Self.bruteForce(places, box, kind: kind)
                #expect(try Self.allPages(index, query) == expected, "box \(box) kind \(String(describing: kind))")
            }
        }
    }

    @Test("pages stay right as places change between them")
    func pagesAcrossChanges() throws {
        var places = Self.places(count: 400, seed: 9)
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: places, revision: 1))
        let box = GeoBox(west: -123, south: 37, east: -122, north: 38)
        let first = index.within(try ViewportQuery(box: box, limit: 10))
        // A place that the first page showed gets better; one not yet shown gets worse: neither shows twice.
        var better = places.first { $0.id == first.ids[3] }!
        better.rating = RatingAggregate(count: 100, sum: 500)
        let rest = Self.bruteForce(places, box, kind: nil).dropFirst(10)
        var worse = places.first { $0.id == rest.first! }!
        worse.rating = RatingAggregate(count: 100, sum: 100)
        index.apply(PlaceChanges(upserted: [better, worse], deleted: [], revision: 2))
        places = places.map { $0.id == better.id ? better : $0.id == worse.id ? worse : $0 }
        let next = try ViewportQuery.parse(bbox: Self.text(box), limit: "500", cursor: first.nextCursor, filter: PlaceFilter())
        let shown = first.ids + index.within(next).ids
        #expect(Set(shown).count == shown.count)
        #expect(Set(shown) == Set(Self.bruteForce(places, box, kind: nil)))
    }

    @Test("bad boxes name bbox; a box to the pole is fine")
    func badBoxes() throws {
        for text in ["", "1,2,3", "1,2,3,4,5", "a,1,2,3", "0,91,1,92", "0,-90.5,1,0", "0,10,1,9", "-181,0,0,1", "0,0,180.1,1", "nan,0,1,1", "0,,1,1"]
        {
            #expect(throws: PlacesError.self) { _ = try GeoBox.parse(text) }
            do { _ = try GeoBox.parse(text) } catch { #expect(error.field == "bbox", "\(text)") }
        }
        #expect(try GeoBox.parse("-180,-90,180,90") == GeoBox(west: -180, south: -90, east: 180, north: 90))
        #expect(try GeoBox.parse("170,-85.05,-170,85.05").crossesAntimeridian)
        #expect(throws: PlacesError.self) { _ = try ViewportQuery.parse(bbox: "0,0,1,1", limit: "0", cursor: nil, filter: PlaceFilter()) }
        #expect(throws: PlacesError.self) { _ = try ViewportQuery.parse(bbox: "0,0,1,1", limit: nil, cursor: "kjunk", filter: PlaceFilter()) }
    }
}
