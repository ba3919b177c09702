import Foundation
import GeoIndex
import Testing

@testable import PlacesCore

/// Nearby by score ("popular near here") and with `minRating`, answered from the map's cells and their best ratings,
/// against a brute force over every place: the same places, distances and order, for circles across the antimeridian
/// and at the poles, with every filter, and as places are added, moved, re-rated and deleted.
@Suite("Discover: nearby by score, and minRating, from the cells' bounds")
struct DiscoverTests {
    /// Places around the cluster tests' centres, a fifth of them unrated, the rest rated so that scores and averages
    /// tie often (a few counts and sums).
    static func places(count: Int, seed: UInt64) -> [PlaceSummary] {
        var rng = SplitMix64(seed: seed &+ 1)
        return ClusterTests.places(count: count, seed: seed).map { place in
            var place = place
            place.rating = rating(&rng)
            if Int.random(in: 0..<6, using: &rng) == 0 { place.priceLevel = 2 }
            return place
        }
    }

    static func rating(_ rng: inout SplitMix64) -> RatingAggregate {
        guard Int.random(in: 0..<5, using: &rng) > 0 else { return RatingAggregate() }
        let count = Int.random(in: 1...4, using: &rng)
        return RatingAggregate(count: count, sum: Int.random(in: count...(5 * count), using: &rng))
    }

    /// Every place in the circle that passes the filter, in the query's order, the first `limit`: (id, distance).
    static func bruteForce(_ places: [PlaceSummary], _ query: NearbyQuery) -> [(id: String, meters: Double)] {
        let matcher = query.filter.matcher()
        var found: [(place: PlaceSummary, meters: Double)] = []
        for place in places {
            let meters = Geodesy.distanceMeters(query.center, place.coordinate)
            guard meters <= query.radiusMeters, matcher.matches(place) else { continue }
            found.append((place, meters))
        }
        found.sort { a, b in
            if query.sort == .score, a.place.rating.score != b.place.rating.score { return a.place.rating.score > b.place.rating.score }
            return a.meters != b.meters ? a.meters < b.meters : a.place.id < b.place.id
        }
        return found.prefix(query.limit).map { ($0.place.id, $0.meters) }
    }

    static func check(_ index: PlaceIndex, _ places: [PlaceSummary], _ query: NearbyQuery, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = bruteForce(places, query)
        // What nearby answers, and both of its paths: the walk of the map's cells and the grid alone.
        for answer in [index.nearby(query), index.nearby(query, fromCells: true), index.nearby(query, fromCells: false)] {
            #expect(answer.map(\.id) == expected.map(\.id), "\(query)", sourceLocation: sourceLocation)
            #expect(answer.map(\.distanceMeters) == expected.map(\.meters), "\(query)", sourceLocation: sourceLocation)
        }
    }

    /// Centres near the places, at random, with the radii, limits, orders and filters a map asks for.
    static func queries(_ places: [PlaceSummary], _ rng: inout SplitMix64, count: Int) throws -> [NearbyQuery] {
        var queries: [NearbyQuery] = []
        for _ in 0..<count {
            let near = places[Int.random(in: 0..<places.count, using: &rng)].coordinate
            let center = Coordinate(
                latitude: min(90, max(-90, near.latitude + Double.random(in: -0.05...0.05, using: &rng))),
                longitude: near.longitude
            )
            var filter = PlaceFilter()
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: filter.kind = .gem
            case 1: filter.minRating = [1, 3.5, 4, 4.75, 5].randomElement(using: &rng)!
            case 2:
                filter.minRating = 4
                filter.kind = .restaurant
            case 3: filter.maxPrice = 2
            default: break
            }
            queries.append(
                try NearbyQuery(
                    center: center,
                    radiusMiles: [0.5, 3, 20].randomElement(using: &rng)!,
                    limit: [1, 7, 50, 500].randomElement(using: &rng)!,
                    filter: filter,
                    sort: Bool.random(using: &rng) ? .score : .distance
                )
            )
        }
        return queries
    }

    @Test("by score and with minRating, the answer is the brute force's, across the antimeridian and at the poles", arguments: [5, 17] as [UInt64])
    func answersAsTheBruteForce(seed: UInt64) throws {
        let places = Self.places(count: 3_000, seed: seed)
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: places, revision: 1))
        var rng = SplitMix64(seed: seed &+ 2)
        for query in try Self.queries(places, &rng, count: 150) { Self.check(index, places, query) }
        // On the antimeridian itself and at both poles.
        for (lat, lon) in [(-17.8, 180.0), (-17.8, -180.0), (90.0, 0.0), (-90.0, 12.0), (89.9, 179.9)] {
            for sort in NearbyOrder.allCases {
                for minRating in [nil, 4.0] as [Double?] {
                    var filter = PlaceFilter()
                    filter.minRating = minRating
                    let query = try NearbyQuery(
                        center: Coordinate(latitude: lat, longitude: lon),
                        radiusMiles: 20,
                        limit: 40,
                        filter: filter,
                        sort: sort
                    )
                    Self.check(index, places, query)
                }
            }
        }
    }

    @Test("the cells' best ratings follow ratings, moves and deletions, and answers stay the brute force's")
    func boundsFollowChanges() throws {
        var places = Self.places(count: 2_000, seed: 29)
        var table = PlaceTable(PlaceSnapshot(summaries: places, revision: 1))
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: places, revision: 1))
        var rng = SplitMix64(seed: 30)
        var seen = Set<MapGrid.Cell>()
        for revision in 2...8 {
            // Half the set re-rates places, the rest is the cluster tests' changes.
            var changes = ClusterTests.changeSet(&places, revision: revision, &rng)
            for _ in 0..<100 {
                let i = Int.random(in: 0..<places.count, using: &rng)
                places[i].rating = Self.rating(&rng)
                changes.upserted.removeAll { $0.id == places[i].id }
                changes.upserted.append(places[i])
            }
            table.apply(changes)
            index.apply(changes)
            let fresh = PlaceTable(PlaceSnapshot(summaries: places, revision: 1))
            // Every cell of the coarse zooms, and the finer cells that hold or held places.
            seen.formUnion(places.map { RatingCells.cell(of: $0.coordinate)! })
            var cells = (0...4).flatMap { MapGrid.cells(in: GeoBox(west: -180, south: -90, east: 180, north: 90), zoom: $0) }
            for zoom in [7, 10] { cells += Set(seen.map { MapGrid.Cell(zoom: zoom, row: $0.row >> (13 - zoom), column: $0.column >> (13 - zoom)) }) }
            for cell in cells {
                for kind in [PlaceKind.gem, .restaurant] as [PlaceKind?] + [nil] {
                    let kept = table.cells.record(cell)?.bests(kind)
                    let afresh = fresh.cells.record(cell)?.bests(kind)
                    #expect(kept == afresh, "rev \(revision) \(cell) \(String(describing: kind))")
                }
            }
            for cell in seen {
                #expect(table.ratingCells.record(cell) == fresh.ratingCells.record(cell), "rev \(revision) \(cell)")
            }
            for query in try Self.queries(places, &rng, count: 30) { Self.check(index, places, query) }
        }
    }

    @Test("a minRating that no place meets visits no cell's places")
    func aMinRatingNothingMeetsScansNothing() throws {
        var places = Self.places(count: 2_000, seed: 41)
        for i in places.indices where places[i].rating.average.map({ $0 >= 4.5 }) ?? false {
            places[i].rating = RatingAggregate(count: 2, sum: 8)
        }
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: places, revision: 1))
        var scanned = 0
        var filter = PlaceFilter()
        filter.minRating = 4.5
        for sort in NearbyOrder.allCases {
            let query = try NearbyQuery(center: Coordinate(latitude: 37.77, longitude: -122.42), radiusMiles: 20, filter: filter, sort: sort)
            #expect(index.nearby(query, whileScanning: { scanned += 1 }).isEmpty)
            // The same circle with a minRating some places meet does scan.
            var met = query
            met.filter.minRating = 4
            #expect(!index.nearby(met, whileScanning: {}).isEmpty)
        }
        #expect(scanned == 0)
    }

    @Test("sort must be distance or score")
    func sortIsParsed() throws {
        #expect(try NearbyQuery.parse(lat: "1", lon: "2").sort == .distance)
        #expect(try NearbyQuery.parse(lat: "1", lon: "2", sort: "score").sort == .score)
        for bad in ["", "Score", "rating", "distance "] {
            do {
                _ = try NearbyQuery.parse(lat: "1", lon: "2", sort: bad)
                Issue.record("sort=\(bad) was accepted")
            } catch {
                #expect(error.field == "sort")
            }
        }
    }

    @Test("a lower bound on the distance to a box never exceeds the distance to any point of it")
    func boxBoundIsALowerBound() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<2_000 {
            let zoom = Int.random(in: 0...12, using: &rng)
            let point = Coordinate(latitude: Double.random(in: -90...90, using: &rng), longitude: Double.random(in: -180...180, using: &rng))
            let cell = MapGrid.cell(
                Coordinate(
                    latitude: min(90, max(-90, point.latitude + Double.random(in: -3...3, using: &rng))),
                    longitude: point.longitude
                ),
                zoom: zoom
            )
            let box = cell.bounds
            guard let circle = GeoCircle(center: point, radiusMeters: 32_000) else { continue }
            let bound = circle.minimumDistance(to: box)
            for _ in 0..<20 {
                let inside = Coordinate(
                    latitude: Double.random(in: box.south...box.north, using: &rng),
                    longitude: Double.random(in: box.west...box.east, using: &rng)
                )
                #expect(bound <= Geodesy.distanceMeters(point, inside), "\(point) \(box)")
            }
        }
    }
}
