import Foundation
import GRDB
import GeoIndex
import PlacesCore
import Testing

@testable import PlacesSQLite

@Suite("SQLite place repository")
struct SQLitePlaceRepositoryTests {
    @Test func aNewDatabaseIsEmptyAtRevisionZero() async throws {
        let database = try PlacesDatabase.inMemory()
        #expect(try await database.places.liveCount() == 0)
        let snapshot = try await database.places.liveSummaries()
        #expect(snapshot.summaries.isEmpty && snapshot.revision == 0)
    }

    @Test func seededPlacesRoundTripWithEveryField() async throws {
        let database = try PlacesDatabase.inMemory()
        var restaurant = Fixtures.place("r1", 37.5, -122.25, kind: .restaurant)
        restaurant.description = "Tacos"
        restaurant.address = "1 Main St"
        restaurant.city = "San Francisco"
        restaurant.cuisine = "mexican"
        restaurant.priceLevel = 2
        restaurant.phone = "+1 415 555 0100"
        restaurant.website = "https://example.com"
        restaurant.openingHours = try OpeningHours.parse(["fri": ["18:00-02:00"]])
        restaurant.timeZone = "America/Los_Angeles"
        let stored = restaurant
        try await database.places.seed([stored])
        let read = try #require(try await database.places.place(id: "r1"))
        #expect(read == stored)
    }

    @Test func everySeedTransactionMovesTheFeedAndChangesFollowIt() async throws {
        let database = try PlacesDatabase.inMemory()
        let repository = database.places
        try await repository.seed([Fixtures.place("a", 1, 1), Fixtures.place("b", 2, 2)])
        let first = try await repository.liveSummaries().revision
        #expect(first == 2, "one feed position a place written")
        try await repository.seed([Fixtures.place("b", 3, 3, name: "B2")])
        let changes = try #require(try await repository.changes(since: first, limit: 10))
        #expect(changes.revision == first + 1)
        #expect(changes.upserted.map(\.id) == ["b"])
        #expect(changes.upserted.first?.name == "B2")
        #expect(try await repository.changes(since: changes.revision, limit: 10)?.upserted.isEmpty == true)
        #expect(try await repository.changes(since: 0, limit: 1) == nil, "two places changed, more than the limit")
    }

    @Test func reseedingAnUnchangedPlaceKeepsItsUpdatedAt() async throws {
        let database = try PlacesDatabase.inMemory()
        let first = Fixtures.place("a", 1, 1)
        try await database.places.seed([first])
        var again = first
        again.updatedAt = Fixtures.now.addingTimeInterval(3_600)
        let same = again
        try await database.places.seed([same])
        #expect(try await database.places.place(id: "a")?.updatedAt == Fixtures.now)
        again.name = "Renamed"
        let renamed = again
        try await database.places.seed([renamed])
        #expect(try await database.places.place(id: "a")?.updatedAt == Fixtures.now.addingTimeInterval(3_600))
    }

    @Test func aSeedTransactionRolledBackWritesNothing() async throws {
        let database = try PlacesDatabase.inMemory()
        let transaction = try await database.places.beginSeed()
        #expect(try await transaction.upsert([Fixtures.place("a", 1, 1), Fixtures.place("a", 2, 2)]).keys.sorted() == [1])
        await transaction.rollback()
        #expect(try await database.places.liveCount() == 0)
        #expect(try await database.places.liveSummaries().revision == 0)
        // The writer is free again once it rolled back.
        try await database.places.seed([Fixtures.place("b", 1, 1)])
        #expect(try await database.places.liveCount() == 1)
    }

    @Test func aSeedTransactionNobodyEndsRollsBackAndFreesTheWriter() async throws {
        let database = try PlacesDatabase.inMemory()
        do {
            let transaction = try await database.places.beginSeed()
            _ = try await transaction.upsert([Fixtures.place("a", 1, 1)])
        }
        try await database.places.seed([Fixtures.place("b", 1, 1)])
        #expect(try await database.places.liveSummaries().summaries.map(\.id) == ["b"])
    }

    @Test func seedsDoNotOverwriteAPlaceAddedThroughTheAPI() async throws {
        let database = try PlacesDatabase.inMemory()
        let owned = Fixtures.place("mine", 1, 1, name: "Mine", source: nil)
        try await database.writer.write { db in
            var binding = try PlaceBinding(db: db, sql: PlaceRow.insertSQL)
            _ = try binding.execute(owned, revision: 0, in: db)
        }
        await #expect(
            performing: {
                try await database.places.seed([Fixtures.place("mine", 5, 5)])
            },
            throws: { ($0 as? PlacesError)?.code == .conflict }
        )
        #expect(try await database.places.place(id: "mine")?.name == "Mine")
    }

    @Test func reseedingBringsADeletedSeedPlaceBackAndDeletionsShowAsChanges() async throws {
        let database = try PlacesDatabase.inMemory()
        try await database.places.seed([Fixtures.place("a", 1, 1)])
        let before = try await database.places.liveSummaries().revision
        // A plain UPDATE, as an operator's sqlite3 would write it: the feed's trigger records it all the same.
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE place SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE id = 'a'")
        }
        let deleted = try #require(try await database.places.changes(since: before, limit: 10))
        #expect(deleted.deleted == ["a"] && deleted.upserted.isEmpty)
        #expect(try await database.places.liveCount() == 0)
        try await database.places.seed([Fixtures.place("a", 1, 1)])
        #expect(try await database.places.liveCount() == 1)
    }

    @Test func aServerOnTheSameFilePicksUpWhatAnotherConnectionCommitted() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("places.sqlite").path
        let server = try PlacesDatabase(path: path)
        let service = PlaceService(repository: server.places, index: PlaceIndex())
        try await service.loadIndex()
        #expect(service.indexedCount == 0)

        let cli = try PlacesDatabase(path: path)
        try await cli.places.seed([Fixtures.place("x", 10, 10), Fixtures.place("y", 10, 10.001)])
        #expect(try await service.syncIndex() == 2)
        let answer = service.nearby(try NearbyQuery(center: Coordinate(latitude: 10, longitude: 10), radiusMiles: 1))
        #expect(answer.places.map(\.id) == ["x", "y"])
    }
}
