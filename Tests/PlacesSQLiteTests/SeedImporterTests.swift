import Foundation
import GRDB
import GeoIndex
import PlacesCore
import Testing

@testable import PlacesSQLite

@Suite("Seeding into SQLite")
struct SeedImporterTests {
    let importer: SeedImporter
    let database: PlacesDatabase

    init() throws {
        database = try PlacesDatabase.inMemory()
        importer = SeedImporter(repository: database.places, now: { Fixtures.now })
    }

    static let csv = #"""
        id,name,kind,lat,lon,city,tags,price_level,unknown
        sf-1,"Vulcan Steps, the stairway",gem,37.7612,-122.4401,San Francisco,stairs;views,,ignored
        sf-2,"La ""Palma""",restaurant,37.7528,-122.4112,San Francisco,tacos,1,
        ,No Id Cafe,restaurant,37.75,-122.41,San Francisco,,2,

        """#

    @Test func aCSVLoadsAndLoadingItAgainLeavesOneCopy() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Fixtures.write(SeedImporterTests.csv, to: "sf.csv", in: folder)
        let first = try await importer.load(file: path)
        #expect(first.loaded == 3)
        let second = try await importer.load(file: path)
        #expect(second.loaded == 3)
        #expect(try await database.places.liveCount() == 3)
        let palma = try #require(try await database.places.place(id: "sf-2"))
        #expect(palma.name == #"La "Palma""#)
        #expect(palma.priceLevel == 1)
        #expect(palma.seedSource == "sf.csv")
        let steps = try #require(try await database.places.place(id: "sf-1"))
        #expect(steps.tags == ["stairs", "views"])
        let derived = PlaceDraft.derivedID(name: "No Id Cafe", coordinate: Coordinate(latitude: 37.75, longitude: -122.41))
        #expect(try await database.places.place(id: derived) != nil)
    }

    @Test func oneBadRowAbortsTheWholeFileNamingFileAndLine() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = SeedImporterTests.csv + "sf-4,Bad,gem,97.5,-122.4,San Francisco,,,\n"
        let path = try Fixtures.write(text, to: "bad.csv", in: folder)
        await #expect(
            performing: { _ = try await importer.load(file: path) },
            throws: { error in
                guard let error = error as? PlacesError else { return false }
                return error.code == .invalidInput && error.message.contains("bad.csv:5:")
                    && error.message.contains("lat must be a number from -90 to 90")
            }
        )
        #expect(try await database.places.liveCount() == 0)
    }

    @Test func skipInvalidLoadsTheValidRowsAndReportsEachSkippedOne() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = SeedImporterTests.csv + "sf-4,,gem,37.5,-122.4,,,,\nsf-1,Twice,gem,37.5,-122.4,,,,\n"
        let path = try Fixtures.write(text, to: "mixed.csv", in: folder)
        let report = try await importer.load(file: path, skipInvalid: true)
        #expect(report.loaded == 3)
        #expect(report.skipped.map(\.line) == [5, 6])
        #expect(report.skipped.first?.field == "name")
        #expect(report.skipped.last?.reason.contains("duplicate id") == true)
        #expect(try await database.places.liveCount() == 3)
    }

    @Test func ourJSONFormatLoadsWithRestaurantDetails() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = """
            {
              "places": [
                {"id": "fj-1", "kind": "restaurant", "name": "Kava Bar", "lat": -16.8, "lon": 179.99,
                 "cuisine": "fijian", "priceLevel": 2, "timeZone": "Pacific/Fiji",
                 "openingHours": {"fri": ["18:00-02:00"]}, "tags": ["kava"]},
                {"id": "fj-2", "kind": "gem", "name": "Dateline Marker", "lat": -16.81, "lon": -179.99}
              ]
            }
            """
        let path = try Fixtures.write(json, to: "fiji.json", in: folder)
        #expect(try await importer.load(file: path).loaded == 2)
        let bar = try #require(try await database.places.place(id: "fj-1"))
        #expect(bar.openingHours?.textDays == ["fri": ["18:00-02:00"]])
        #expect(bar.timeZone == "Pacific/Fiji")
    }
}

@Suite("Seeding other formats and broken files")
struct SeedFormatsImportTests {
    @Test func geoJSONPointsLoadWithTheirFeatureIDs() async throws {
        let database = try PlacesDatabase.inMemory()
        let importer = SeedImporter(repository: database.places, now: { Fixtures.now })
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let geojson = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "tos-1", "geometry": {"type": "Point", "coordinates": [18.9553, 69.6492]},
               "properties": {"name": "Arctic Cathedral", "kind": "gem", "tags": ["church"]}},
              {"type": "Feature", "id": 42, "geometry": {"type": "Point", "coordinates": [-179.99, -16.8, 12]},
               "properties": {"name": "Dateline", "price_level": null}}
            ]}
            """
        let path = try Fixtures.write(geojson, to: "north.geojson", in: folder)
        #expect(try await importer.load(file: path).loaded == 2)
        let cathedral = try #require(try await database.places.place(id: "tos-1"))
        #expect(cathedral.coordinate == Coordinate(latitude: 69.6492, longitude: 18.9553))
        #expect(try await database.places.place(id: "42")?.coordinate.longitude == -179.99)
    }

    @Test(arguments: [
        ("broken.json", #"{"places": [{"id": "a", "name": "A", "lat": 1, "lon": 2}, {"id": "b", "#),
        (
            "broken.geojson",
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "LineString", "coordinates": []}}]}"#
        ),
        ("broken.csv", "name,lat,lon\nA,1,2\n\"B,3,4\n"),
        ("noheader.csv", "name,latitude\nA,1\n"),
    ])
    func aBrokenFileWritesNothing(name: String, text: String) async throws {
        let database = try PlacesDatabase.inMemory()
        let importer = SeedImporter(repository: database.places, now: { Fixtures.now })
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Fixtures.write(text, to: name, in: folder)
        await #expect(throws: PlacesError.self) { _ = try await importer.load(file: path) }
        #expect(try await database.places.isEmpty())
    }

    @Test func aBulkLoadPutsItsTriggersBackAndItsPlacesAreFound() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try PlacesDatabase.inMemory()
        let importer = SeedImporter(repository: database.places, now: { Fixtures.now })
        let triggers = { @Sendable in
            try await database.read { db in
                try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY name").map { "\($0)" }
            }
        }
        let before = try await triggers()
        #expect(before.filter { $0.contains("ON place") }.count == 3, "three for the feed: \(before)")
        let search = { @Sendable (q: String) in
            try await PlaceService(repository: database.places, index: PlaceIndex()).search(
                PlaceSearchQuery.parse(q: q, lat: nil, lon: nil, radius: nil, page: PageRequest())
            ).items.map(\.place.id)
        }

        // A file that fails half way leaves no rows and the triggers as they were.
        let bad = try Fixtures.write(SeedImporterTests.csv + "sf-4,Bad,gem,97.5,-122.4,,,,\n", to: "bad.csv", in: folder)
        await #expect(throws: PlacesError.self) { _ = try await importer.load(file: bad) }
        #expect(try await triggers() == before)

        // Into the empty table: the triggers are set aside, and back afterwards.
        _ = try await importer.load(file: try Fixtures.write(SeedImporterTests.csv, to: "sf.csv", in: folder))
        #expect(try await triggers() == before)
        #expect(try await search("vulcan stair") == ["sf-1"])
        #expect(try await search("palma") == ["sf-2"])

        // Into a table with rows, the triggers record each row in the feed.
        let more = "id,name,lat,lon,tags\nsf-9,Cafe Zoë,37.76,-122.42,coffee\n"
        _ = try await importer.load(file: try Fixtures.write(more, to: "more.csv", in: folder))
        #expect(try await search("zoe") == ["sf-9"])
        #expect(try await search("coffee") == ["sf-9"])
    }
}
