import Foundation
import GeoIndex
import PlacesCore
import Testing

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
    }
}
