import Foundation
import Logging
import PlacesCore
import PlacesSQLite
import Testing

@testable import PlacesCLI

@Suite("First start of places serve")
struct FirstStartTests {
    @Test func anEmptyDatabaseIsSeededOnceFromTheSeedFolder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-seeds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = #"{"places": [{"id": "a", "name": "A", "lat": 1, "lon": 2}, {"id": "b", "name": "B", "lat": 3, "lon": 4}]}"#
        try Data(json.utf8).write(to: folder.appendingPathComponent("one.json"))
        try Data("not a seed".utf8).write(to: folder.appendingPathComponent("README.txt"))

        let database = try PlacesDatabase.inMemory()
        let logger = Logger(label: "test")
        let first = try await SeedRun.seedIfEmpty(database, from: folder.path, logger: logger)
        #expect(first?.loaded == 2)
        #expect(first?.failedFiles == 0)
        #expect(try await database.places.liveCount() == 2)
        #expect(try await SeedRun.seedIfEmpty(database, from: folder.path, logger: logger) == nil)
    }

    @Test func aMissingSeedFolderStartsEmpty() async throws {
        let database = try PlacesDatabase.inMemory()
        #expect(try await SeedRun.seedIfEmpty(database, from: "/nonexistent/seeds", logger: Logger(label: "test")) == nil)
        #expect(try await database.places.isEmpty())
    }
}

@Suite("First start with a broken seed file")
struct FirstStartFailureTests {
    @Test func aSeedFileThatFailsStopsTheStartWithAClearError() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-seeds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"places": [{"id": "a", "name": "A", "lat": 1, "lon": 2}]}"#.utf8).write(to: folder.appendingPathComponent("a.json"))
        try Data("name,lat,lon\nBad,95,1\n".utf8).write(to: folder.appendingPathComponent("b.csv"))
        let database = try PlacesDatabase.inMemory()
        await #expect(
            performing: { _ = try await SeedRun.seedIfEmpty(database, from: folder.path, logger: Logger(label: "test")) },
            throws: { error in
                guard let error = error as? PlacesError else { return false }
                return error.code == .invalidInput && error.message.contains("places seed")
            }
        )
    }
}
