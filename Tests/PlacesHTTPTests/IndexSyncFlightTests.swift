import Foundation
import PlacesSQLite
import Synchronization
import Testing

@testable import PlacesCore

/// A place repository over another that stands for a database replaced under the instance: it answers with the
/// generation the test sets, counts the whole-table loads, and holds them until the test lets them through. It counts
/// the reads of the feed too, and can hold them before they are sent (as a read waiting for its connection).
final class ReplacedDatabase: PlaceRepository {
    private let inner: any PlaceRepository
    private let generation = Mutex("first")
    private let loadGate = TestGate()
    private let readGate = TestGate()

    init(_ inner: any PlaceRepository) { self.inner = inner }

    /// How many times the whole table was loaded.
    var loads: Int { loadGate.passed }

    /// How many times the feed was read.
    var reads: Int { readGate.passed }

    /// Holds the reads of the feed that come, before they are sent, until `letReadsThrough`.
    func holdReads() { readGate.hold() }

    /// Lets the held reads (and every later one) through.
    func letReadsThrough() { readGate.open() }

    /// Waits (yielding, never sleeping) until `count` reads are held; false if they never are.
    func readsHeld(_ count: Int) async -> Bool { await readGate.waiting(count) }

    /// Replaces the database: a new generation, and the loads that follow wait for `letLoadsThrough`.
    func replace() {
        generation.withLock { $0 = "second" }
        loadGate.hold()
    }

    /// Lets the held loads (and every later one) through.
    func letLoadsThrough() { loadGate.open() }

    func liveSummaries(into receiver: any PlaceSummaryReceiver) async throws -> PlaceSnapshot {
        await loadGate.pass()
        var snapshot = try await inner.liveSummaries(into: receiver)
        snapshot.generation = generation.withLock { $0 }
        return snapshot
    }

    func changes(since revision: Int64, limit: Int, rereading: @escaping @Sendable () -> Set<String>) async throws -> PlaceChanges? {
        await readGate.pass()
        var changes = try await inner.changes(since: revision, limit: limit, rereading: rereading)
        changes?.generation = generation.withLock { $0 }
        return changes
    }

    func unapplied(since revision: Int64, leavingOut applied: Set<String>) async throws -> UnappliedChanges {
        try await inner.unapplied(since: revision, leavingOut: applied)
    }
    func place(id: String) async throws -> Place? { try await inner.place(id: id) }
    func beginSeed() async throws -> any SeedTransaction { try await inner.beginSeed() }
    func insert(_ place: Place, limit: AdditionLimit?) async throws -> Bool { try await inner.insert(place, limit: limit) }
    func additionBlocking(ownerID: String, since: Date, allowed: Int) async throws -> Date? {
        try await inner.additionBlocking(ownerID: ownerID, since: since, allowed: allowed)
    }
    func update(_ place: Place) async throws { try await inner.update(place) }
    func setFavorite(userID: String, placeID: String, favorite: Bool, now: Date) async throws {
        try await inner.setFavorite(userID: userID, placeID: placeID, favorite: favorite, now: now)
    }
    func favorites(userID: String) async throws -> [(placeID: String, createdAt: Date)] { try await inner.favorites(userID: userID) }
    func save(_ rating: Rating) async throws -> RatingAggregate { try await inner.save(rating) }
    func deleteRating(userID: String, placeID: String) async throws -> RatingAggregate? {
        try await inner.deleteRating(userID: userID, placeID: placeID)
    }
    func liveCount() async throws -> Int { try await inner.liveCount() }
    func isEmpty() async throws -> Bool { try await inner.isEmpty() }
}

/// Index syncs are single-flight: callers at the same moment share one sync rather than each reading the database.
@Suite("Index syncs, one at a time")
struct IndexSyncFlightTests {
    static let callers = 12

    /// Waits (yielding, never sleeping) until `count` callers await a sync of `places`; false if they never do.
    static func joined(_ count: Int, _ places: PlaceService) async -> Bool {
        for _ in 0..<1_000_000 {
            if places.syncs.joined >= count { return true }
            await Task.yield()
        }
        return false
    }

    @Test func concurrentCatchUpsAfterANewGenerationLoadTheTableOnce() async throws {
        let database = try PlacesDatabase.inMemory()
        try await database.places.seed([TestApp.place("a", 40, -74)])
        let repository = ReplacedDatabase(database.places)
        let places = PlaceService(repository: repository, index: PlaceIndex())
        try await places.loadIndex()
        #expect(repository.loads == 1)

        // The database is replaced under the instance, with one more place; clients that saw its revision arrive at once.
        repository.replace()
        try await database.places.insert(TestApp.place("b", 40.001, -74))
        let revision = try #require(try await database.places.changes(since: 0, limit: 10)).revision
        let reached = try await withThrowingTaskGroup(of: Bool.self) { tasks in
            for _ in 0..<Self.callers {
                tasks.addTask { await places.catchUp(to: revision, patience: .seconds(600)) }
            }
            // The first caller's load is held until every caller waits on a sync.
            #expect(await Self.joined(Self.callers, places), "\(places.syncs.joined) of \(Self.callers) callers joined a sync")
            repository.letLoadsThrough()
            return try await tasks.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(reached == Array(repeating: true, count: Self.callers))
        #expect(repository.loads == 2, "the start-up load and one after the new generation, not one per caller")
        #expect(places.indexedCount == 2)
        #expect(places.indexRevision >= revision)
    }

    @Test func aWriteWhoseSyncIsAskedForBeforeTheRunningOneSendsItsReadJoinsIt() async throws {
        let database = try PlacesDatabase.inMemory()
        let repository = ReplacedDatabase(database.places)
        let places = PlaceService(repository: repository, index: PlaceIndex())
        try await places.loadIndex()
        try await database.places.insert(TestApp.place("a", 40, -74))
        try await database.places.insert(TestApp.place("b", 40.001, -74))
        repository.holdReads()
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await places.syncWrite(of: "a") }
            // The first write's flight has not sent its read (it waits for its connection): the second joins it.
            #expect(await repository.readsHeld(1))
            tasks.addTask { try await places.syncWrite(of: "b") }
            #expect(await Self.joined(2, places))
            repository.letReadsThrough()
            try await tasks.waitForAll()
        }
        #expect(repository.reads == 1, "one flight for both writes, not one and the next")
        #expect(places.indexedCount == 2)
    }

    @Test func syncsAtOnceRunAsOneAndOneQueuedBehindItThatSeesLaterCommits() async throws {
        let database = try PlacesDatabase.inMemory()
        let repository = ReplacedDatabase(database.places)
        let places = PlaceService(repository: repository, index: PlaceIndex())
        try await places.loadIndex()
        repository.replace()
        try await withThrowingTaskGroup(of: Int.self) { tasks in
            for _ in 0..<Self.callers {
                tasks.addTask { try await places.syncIndex() }
            }
            #expect(await Self.joined(Self.callers, places))
            // Committed while the first sync is held: the sync queued behind it, which the later callers share, reads it.
            try await database.places.insert(TestApp.place("late", 40, -74))
            repository.letLoadsThrough()
            try await tasks.waitForAll()
        }
        // One sync ran, the others shared the one queued behind it (which found the same generation: no load).
        #expect(repository.loads == 2)
        #expect(places.indexedCount == 1)
    }
}
