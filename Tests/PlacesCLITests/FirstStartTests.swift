import Foundation
import Logging
import PlacesCore
import PlacesSQLite
import Testing

@testable import PlacesCLI

@Suite("First start of places serve")
struct FirstStartTests {
    @Test func anEmptyDatabaseIsSeededOnceFromTheSeedFolder() async throws {
        let json = #"{"places": [{"id": "a", "name": "A", "lat": 1, "lon": 2}, {"id": "b", "name": "B", "lat": 3, "lon": 4}]}"#
        try await withSeedFolder(["one.json": json, "README.txt": "not a seed"]) { folder in
            let database = try PlacesDatabase.inMemory()
            let logger = Logger(label: "test")
            let first = try await SeedRun.seedIfEmpty(database.places, from: folder.path, logger: logger)
            #expect(first?.loaded == 2)
            #expect(first?.failedFiles == 0)
            #expect(try await database.places.liveCount() == 2)
            #expect(try await SeedRun.seedIfEmpty(database.places, from: folder.path, logger: logger) == nil)
        }
    }

    @Test func aMissingSeedFolderStartsEmpty() async throws {
        let database = try PlacesDatabase.inMemory()
        #expect(try await SeedRun.seedIfEmpty(database.places, from: "/nonexistent/seeds", logger: Logger(label: "test")) == nil)
        #expect(try await database.places.isEmpty())
    }
}

@Suite("First start with a broken seed file")
struct FirstStartFailureTests {
    @Test func aSeedFileThatFailsStopsTheStartWithAClearError() async throws {
        let files = ["a.json": #"{"places": [{"id": "a", "name": "A", "lat": 1, "lon": 2}]}"#, "b.csv": "name,lat,lon\nBad,95,1\n"]
        try await withSeedFolder(files) { folder in
            let database = try PlacesDatabase.inMemory()
            await #expect(
                performing: { _ = try await SeedRun.seedIfEmpty(database.places, from: folder.path, logger: Logger(label: "test")) },
                throws: { error in
                    guard let error = error as? PlacesError else { return false }
                    return error.code == .invalidInput && error.message.contains("places seed")
                }
            )
        }
    }
}

/// A seed folder holding `files` (name: contents) for one test, removed when `body` ends.
private func withSeedFolder(_ files: [String: String], _ body: (URL) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-seeds-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for (name, contents) in files {
        try Data(contents.utf8).write(to: folder.appendingPathComponent(name))
    }
    try await body(folder)
}
