import Foundation
import GeoIndex
import PlacesTestSupport
import Testing

@testable import PlacesCore

/// Meet in the middle against a brute force over every place: the same places, distances and order, for origins
/// close together and far apart (an empty intersection), across the antimeridian and near a pole, with filters.
@Suite("Meet: the places within 20 miles of everyone, the fairest first")
struct MeetTests {
    /// Every place within 20 miles of every origin that passes the filter, the fairest first, the first `limit`:
    /// (id, each origin's distance).
    static func bruteForce(_ places: [PlaceSummary], _ query: MeetQuery) -> [(id: String, meters: [Double])] {
        let matcher = query.filter.matcher()
        var found: [(id: String, meters: [Double], farthest: Double, total: Double)] = []
        for place in places where matcher.matches(place) {
            let meters = query.origins.map { Geodesy.distanceMeters($0, place.coordinate) }
            guard meters.allSatisfy({ $0 <= query.radiusMeters }) else { continue }
            found.append((place.id, meters, meters.max()!, meters.reduce(0, +)))
        }
        found.sort { a, b in
            if a.farthest != b.farthest { return a.farthest < b.farthest }
            if a.total != b.total { return a.total < b.total }
            return a.id < b.id
        }
        return found.prefix(query.limit).map { ($0.id, $0.meters) }
    }

    /// Checks the index's answer against the brute force's; answers how many places they hold.
    @discardableResult
    static func check(_ index: PlaceIndex, _ places: [PlaceSummary], _ query: MeetQuery, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let expected = bruteForce(places, query)
        let answer = index.meet(query)
        #expect(answer.map(\.id) == expected.map(\.id), "\(query.origins)", sourceLocation: sourceLocation)
        #expect(answer.map { $0.distances.map(\.meters) } == expected.map(\.meters), "\(query.origins)", sourceLocation: sourceLocation)
        return expected.count
    }

    @Test("the answer is the brute force's, across the antimeridian, near a pole and with nothing in common", arguments: [3, 11] as [UInt64])
    func answersAsTheBruteForce(seed: UInt64) {
        let places = DiscoverTests.places(count: 3_000, seed: seed)
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: places, revision: 1))
        var rng = SplitMix64(seed: seed &+ 7)
        var answered = 0
        for _ in 0..<120 {
            let near = places[Int.random(in: 0..<places.count, using: &rng)].coordinate
            // Origins within a spread around a place: tight (much in common), wide (little), or far apart (nothing).
            let spread = [0.02, 0.05, 0.1, 0.3, 3.0].randomElement(using: &rng)!
            let origins = (0..<Int.random(in: 2...8, using: &rng)).map { _ in
                rng.coordinate(near: near, latitudeSpread: spread, longitudeSpread: spread)
            }
            var filter = PlaceFilter()
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: filter.kind = .gem
            case 1: filter.minRating = 4
            case 2: filter.maxPrice = 2
            default: break
            }
            let limit = [1, 10, 50, 500].randomElement(using: &rng)!
            if Self.check(index, places, MeetQuery(origins: origins, filter: filter, limit: limit)) > 0 { answered += 1 }
        }
        // Most queries have places in common, some none: both kinds were tried.
        #expect(answered > 40 && answered < 120, "\(answered) of 120 answered")
        // Origins on both sides of the antimeridian, around a pole, and two that share nothing.
        for origins in [
            [Coordinate(latitude: -17.8, longitude: 179.9), Coordinate(latitude: -17.9, longitude: -179.9)],
            [Coordinate(latitude: 89.9, longitude: 0), Coordinate(latitude: 89.9, longitude: 180), Coordinate(latitude: 89.8, longitude: 90)],
            [Coordinate(latitude: 37.77, longitude: -122.42), Coordinate(latitude: 40.7, longitude: -74.0)],
        ] {
            Self.check(index, places, MeetQuery(origins: origins, limit: 40))
        }
        #expect(index.meet(MeetQuery(origins: [Coordinate(latitude: 37.77, longitude: -122.42), Coordinate(latitude: 40.7, longitude: -74.0)])).isEmpty)
    }

    /// The field a refusal names; nil when nothing was refused.
    static func refused(_ body: () throws -> MeetQuery) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? PlacesError)?.field ?? "not a PlacesError"
        }
    }

    @Test("origins and limits out of range are refused, naming the field")
    func badInputIsNamed() {
        let ok = ["37.7,-122.4", "37.8,-122.4"]
        for at in [["37.7,-122.4"], [String](repeating: "37.7,-122.4", count: 21), ["37.7,-122.4", "91,0"], ["37.7,-122.4", "north"], ["37.7"] + ok] {
            #expect(Self.refused { try MeetQuery.parse(at: at, limit: nil) } == "at", "\(at)")
        }
        for limit in ["0", "501", "ten"] {
            #expect(Self.refused { try MeetQuery.parse(at: ok, limit: limit) } == "limit", "\(limit)")
        }
        #expect(Self.refused { try MeetQuery.parse(at: ok, limit: "500") } == nil)
        #expect(Self.refused { try MeetQuery.parse(at: [String](repeating: "37.7,-122.4", count: 20), limit: nil) } == nil)
    }
}

/// The 1 km grid a saved location is snapped to before a meet from the participants uses it.
@Suite("MeetGrid: saved locations at the centre of their 1 km cell")
struct MeetGridTests {
    @Test func aLocationSnapsToTheCentreOfItsCellWithinHalfADiagonal() {
        var random = SplitMix64(seed: 37)
        for index in 0..<20_000 {
            // Half anywhere on Earth, half within a degree of a pole or of the antimeridian.
            let location: Coordinate =
                switch index % 4 {
                case 0, 1: random.coordinate(near: Coordinate(latitude: 0, longitude: 0), latitudeSpread: 90, longitudeSpread: 180)
                case 2: random.coordinate(near: Coordinate(latitude: index % 8 == 2 ? 90 : -90, longitude: 0), latitudeSpread: 1, longitudeSpread: 180)
                default: random.coordinate(near: Coordinate(latitude: 0, longitude: 180), latitudeSpread: 80, longitudeSpread: 0.01)
                }
            let centre = MeetGrid.snapped(location)
            #expect((-90...90).contains(centre.latitude) && (-180...180).contains(centre.longitude), "\(location)")
            // A cell is 1 km tall and close to 1 km wide (within a few metres of it but at the poles' few rows).
            let limit = abs(location.latitude) < 89.9 ? 710.0 : 1_000.0
            #expect(Geodesy.distanceMeters(location, centre) <= limit, "\(location) → \(centre)")
            // The centre is in its own cell: snapping again changes nothing, so asking again tells nothing new.
            #expect(MeetGrid.snapped(centre) == centre, "\(location)")
        }
    }

    @Test func nearbyLocationsInOneCellShareItsCentre() {
        // Lisbon's Bairro Alto: two doors 30 m apart, in one cell, are the same origin.
        let cell = MeetGrid.snapped(Coordinate(latitude: 38.7130, longitude: -9.1450))
        #expect(MeetGrid.snapped(Coordinate(latitude: cell.latitude + 0.0001, longitude: cell.longitude + 0.0002)) == cell)
        #expect(MeetGrid.snapped(Coordinate(latitude: cell.latitude + 0.01, longitude: cell.longitude)) != cell)
    }
}
