import Foundation
import GeoIndex
import Testing

@testable import PlacesCore
@testable import PlacesSQLite

@Suite("The seed files in Seeds/")
struct ShippedSeedsTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Seeds").path

    @Test func everyShippedSeedFileLoadsCleanlyAndCoversTheWorld() async throws {
        let database = try PlacesDatabase.inMemory()
        let importer = SeedImporter(repository: database.places, now: { Fixtures.now })
        let files = try SeedFileReader.files(in: [Self.folder])
        #expect(!files.isEmpty)
        for file in files {
            let report = try await importer.load(file: file)
            #expect(report.skipped.isEmpty)
        }
        let places = try await database.places.liveSummaries().summaries
        #expect(places.count >= 300)
        #expect(Set(places.compactMap(\.city)).count >= 6)
        #expect(places.contains { $0.kind == .gem } && places.contains { $0.kind == .restaurant })
        #expect(places.contains { $0.coordinate.longitude > 179 }, "no place just west of the antimeridian")
        #expect(places.contains { $0.coordinate.longitude < -179 }, "no place just east of the antimeridian")
        #expect(places.contains { $0.coordinate.latitude > 60 }, "no place above 60° north")
        // Restaurants carry the dietary needs they serve as tags, every need somewhere.
        let restaurants = places.filter { $0.kind == .restaurant }
        for need in DietaryNeed.allCases {
            #expect(restaurants.contains { $0.tags.contains(need.rawValue) }, "no restaurant serves \(need.rawValue)")
        }
        #expect(restaurants.filter { !Set($0.tags).isDisjoint(with: DietaryNeed.allCases.map(\.rawValue)) }.count * 2 > restaurants.count)
    }

    /// The shipped places' clusters, as the server loads them from its database, against a count of our own: every
    /// place in the box counted once in the Web Mercator cell its coordinate falls in, worked out here from the
    /// projection's formula, at every zoom, for boxes around the cities, across the antimeridian at Fiji, and over
    /// the whole world.
    @Test func clustersOfTheShippedPlacesAddUpToAnIndependentCount() async throws {
        let database = try PlacesDatabase.inMemory()
        let importer = SeedImporter(repository: database.places, now: { Fixtures.now })
        for file in try SeedFileReader.files(in: [Self.folder]) { _ = try await importer.load(file: file) }
        let snapshot = try await database.places.liveSummaries()
        let index = PlaceIndex()
        index.replaceAll(snapshot)
        let boxes = [
            GeoBox(west: -180, south: -90, east: 180, north: 90),
            GeoBox(west: 177, south: -19.5, east: -178, north: -15.5),
            GeoBox(west: 179.9, south: -17, east: -179.9, north: -16),
            GeoBox(west: -122.52, south: 37.7, east: -122.35, north: 37.82),
            GeoBox(west: -0.6, south: 51.3, east: 0.4, north: 51.7),
            GeoBox(west: 18.8, south: 69.5, east: 19.1, north: 69.8),
            GeoBox(west: 18.3, south: -34.4, east: 18.7, north: -33.8),
        ]
        var checked = 0
        for box in boxes {
            for zoom in MapGrid.zooms where MapGrid.cellCount(in: box, zoom: zoom) <= ClusterQuery.maximumCells {
                for kind in [nil, PlaceKind.gem, .restaurant] {
                    var expected: [String: Int] = [:]
                    for place in snapshot.summaries where box.contains(place.coordinate) && (kind == nil || place.kind == kind) {
                        expected[Self.mercatorCell(place.coordinate, zoom: zoom), default: 0] += 1
                    }
                    let answer = index.clusters(try ClusterQuery(box: box, zoom: zoom, filter: PlaceFilter(kind: kind)))
                    var found: [String: Int] = [:]
                    for feature in answer.features {
                        switch feature {
                        case .place(let place): found[Self.mercatorCell(place.summary.coordinate, zoom: zoom), default: 0] += 1
                        case .cluster(let cell, let count, _, _, _): found["\(cell.zoom)/\(cell.row)/\(cell.column)", default: 0] += count
                        }
                    }
                    #expect(found == expected, "\(box) zoom \(zoom) \(String(describing: kind))")
                    #expect(answer.count == expected.values.reduce(0, +))
                    checked += 1
                }
            }
        }
        #expect(checked > 200)
    }

    /// The Web Mercator cell (64 pixels of a 256-pixel tile) holding a coordinate, from the projection's formula: the
    /// column from the longitude, the row from ln(tan(π/4 + φ/2)), the rows beyond ±85.05° clamped to the edges.
    static func mercatorCell(_ coordinate: Coordinate, zoom: Int) -> String {
        let n = Double(1 << (zoom + 2))
        let phi = coordinate.latitude * .pi / 180
        let y = log(tan(.pi / 4 + phi / 2))
        let row = min(max(Int(((1 - y / .pi) / 2 * n).rounded(.down)), 0), Int(n) - 1)
        let column = min(max(Int(((coordinate.longitude + 180) / 360 * n).rounded(.down)), 0), Int(n) - 1)
        return "\(zoom)/\(row)/\(column)"
    }
}
