import Foundation
import GeoIndex
import Logging
import PlacesTestPostgres
import PlacesTestSupport
import PostgresNIO
import Testing

@testable import PlacesCore
@testable import PlacesPostgres

/// The change feed on a real PostgreSQL, with the interleavings that break a reader trusting the order of positions
/// forced by transactions held open on connections of their own: a transaction id is taken before commit, so one that
/// started first can commit last. Nothing waits on a clock: each step waits for the one before it.
@Suite("The change feed's interleavings on PostgreSQL", TestPostgres.enabled)
struct ChangeFeedInterleavingTests {
    /// A gem at (lat, lon), seeded.
    static func place(_ id: String, name: String? = nil, lat: Double = 40, lon: Double = -74) -> Place {
        TestPlaces.place(id, lat: lat, lon: lon, name: name, seedSource: "feed.json")
    }

    /// Runs `body` with a fresh database and an index following it, closing both after.
    static func withFeed(_ body: (PostgresPlacesDatabase, PlaceService) async throws -> Void) async throws {
        let database = try await TestPostgres.database()
        do {
            try await database.places.seed([place("p", name: "Seeded"), place("q"), place("r")])
            let service = PlaceService(repository: database.places, index: PlaceIndex())
            try await service.loadIndex()
            try await settle(service, database)
            try await body(database, service)
        } catch {
            try? await database.dropSchema()
            database.close()
            throw error
        }
        try await database.dropSchema()
        database.close()
    }

    /// Syncs the index until it has applied everything committed so far. Other cases run at once on the same server,
    /// and a transaction of theirs that ends between the snapshot and the read of who runs what counts as running
    /// (the horizon errs on the safe side): for a moment the horizon may sit below a commit of this case.
    static func settle(_ service: PlaceService, _ database: PostgresPlacesDatabase) async throws {
        let reach = try await database.places.liveSummaries().reach
        for _ in 0..<5_000 {
            try await service.syncIndex()
            // Pending: changes wait above the horizon, or the read announced a late commit, which comes after it.
            if service.indexRevision >= reach && !service.feedPending { return }
            try await Task.sleep(for: .milliseconds(1))
        }
        Issue.record("the feed's horizon stayed below \(reach)")
    }

    /// The name the index shows for `id`, nil when it holds no such live place.
    static func indexed(_ service: PlaceService, _ id: String) async throws -> String? {
        try await service.summaries([id])[id]?.name
    }

    @Test func aTransactionThatStartedFirstAndCommitsLastIsNeverSkippedAndItsStateWins() async throws {
        try await Self.withFeed { database, service in
            let first = try await TestPostgres.operatorConnection(to: database)
            defer { Task { try? await first.close() } }
            // T1 starts first: it takes its transaction id by writing another place.
            try await first.query("BEGIN", logger: database.logger)
            try await first.query("UPDATE place SET name = 'First on q' WHERE id = 'q'", logger: database.logger)
            // T2 starts after it, writes p and commits.
            var second = Self.place("p", name: "Second")
            second.updatedAt = second.updatedAt.addingTimeInterval(1)
            try await database.places.update(second)
            // A reader now reads below T1: T2's change waits above the horizon, and the reader says so.
            let before = service.indexRevision
            try await service.syncIndex()
            #expect(try await Self.indexed(service, "p") == "Seeded", "T2 is above the horizon T1 holds")
            #expect(service.feedPending, "a change waits above the horizon")
            #expect(service.indexRevision >= before)
            // T1 writes p too (its lock waited for nothing: T2 committed) and commits last.
            try await first.query("UPDATE place SET name = 'First' WHERE id = 'p'", logger: database.logger)
            try await first.query("COMMIT", logger: database.logger)
            try await Self.settle(service, database)
            #expect(try await Self.indexed(service, "p") == "First", "the state committed last wins, though its id is older")
            #expect(try await Self.indexed(service, "q") == "First on q", "T1's own first change, below every position read so far")
            #expect(!service.feedPending)
            // Nothing is left behind the index.
            #expect(try await database.places.unapplied(since: service.indexRevision, leavingOut: []).changes == 0)
        }
    }

    /// A transaction left open (an operator's psql session) holds the feed's horizon, not the index's lag: while the
    /// index holds every change committed (its own writes re-read ahead of the horizon, again at each sync), it is
    /// behind by nothing; a change it has not applied counts, with its age.
    @Test func aTransactionLeftOpenHoldsTheHorizonButTheIndexIsBehindOnlyByWhatItHasNotApplied() async throws {
        try await Self.withFeed { database, service in
            let first = try await TestPostgres.operatorConnection(to: database)
            defer { Task { try? await first.close() } }
            try await first.query("BEGIN", logger: database.logger)
            try await first.query("UPDATE place SET name = 'Held' WHERE id = 'q'", logger: database.logger)
            // This instance writes p and re-reads it ahead of the horizon, as a write through it does.
            var mine = Self.place("p", name: "Mine")
            mine.updatedAt = mine.updatedAt.addingTimeInterval(1)
            try await database.places.update(mine)
            try await service.syncWrite(of: "p")
            #expect(try await Self.indexed(service, "p") == "Mine")
            for _ in 0..<2 {
                let lag = try await service.indexLag()
                #expect(lag.changes == 0 && lag.seconds == 0, "\(lag)")
                #expect(try await database.feed.feedHorizonAge() > 0, "\(lag)")
                try await service.syncIndex()
            }
            // Another writer's change, committed above the horizon: the index has not applied it.
            var theirs = Self.place("r", name: "Theirs")
            theirs.updatedAt = theirs.updatedAt.addingTimeInterval(1)
            try await database.places.update(theirs)
            try await service.syncIndex()
            let behind = try await service.indexLag()
            #expect(behind.changes == 1 && behind.seconds >= 0, "\(behind)")
            try await first.query("COMMIT", logger: database.logger)
            try await Self.settle(service, database)
            #expect(try await Self.indexed(service, "r") == "Theirs")
            let caughtUp = try await service.indexLag()
            #expect(caughtUp.changes == 0 && caughtUp.seconds == 0, "\(caughtUp)")
        }
    }

    @Test func twoWritersOfDifferentPlacesDoNotWaitForEachOther() async throws {
        try await Self.withFeed { database, service in
            let first = try await TestPostgres.operatorConnection(to: database)
            defer { Task { try? await first.close() } }
            try await first.query("BEGIN", logger: database.logger)
            try await first.query("UPDATE place SET name = 'Open' WHERE id = 'q'", logger: database.logger)
            // With T1 still open, place writes of every kind commit: no lock that every writer takes.
            let owner = User(
                id: "u-ann", username: "ann", email: "ann@example.com", phone: nil, passwordHash: "x", createdAt: Date(timeIntervalSince1970: 0),
                updatedAt: Date(timeIntervalSince1970: 0)
            )
            try await database.accounts.insert(owner)
            // Every kind of place write at once, with T1 open: each would wait for ever (until its bound fails it)
            // behind a lock T1 held.
            let writes = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        var added = Self.place("added")
                        added.ownerID = "u-ann"
                        added.seedSource = nil
                        try await database.places.insert(added)
                    }
                    group.addTask {
                        var renamed = Self.place("r", name: "Renamed")
                        renamed.updatedAt = renamed.updatedAt.addingTimeInterval(1)
                        try await database.places.update(renamed)
                    }
                    group.addTask {
                        let now = Date(timeIntervalSince1970: 1_800_000_100)
                        _ = try await database.places.save(Rating(placeId: "p", userId: "u-ann", stars: 4, review: nil, createdAt: now, updatedAt: now))
                    }
                    group.addTask { try await database.places.seed([Self.place("seeded-while-open")]) }
                    try await group.waitForAll()
                }
            }
            // The database's lock waits, sampled while they run: none of this schema's connections waits for a lock.
            var waits: [Int] = []
            for _ in 0..<20 {
                let rows = try await first.query(
                    """
                    SELECT count(*) FROM pg_locks JOIN pg_stat_activity USING (pid)
                    WHERE NOT granted AND application_name = \(database.applicationName)
                    """,
                    logger: database.logger
                ).collect()
                waits.append(try rows.first?.decode(Int.self) ?? -1)
            }
            try await writes.value
            #expect(waits.allSatisfy { $0 == 0 }, "\(waits)")
            // T1 is still open: the writes committed before it.
            #expect(try await first.query("SELECT 1", logger: database.logger).collect().count == 1)
            try await first.query("COMMIT", logger: database.logger)
            try await Self.settle(service, database)
            #expect(try await Self.indexed(service, "added") == "Place added")
            #expect(try await Self.indexed(service, "r") == "Renamed")
            #expect(try await Self.indexed(service, "q") == "Open")
            #expect(try await Self.indexed(service, "seeded-while-open") == "Place seeded-while-open")
            #expect(try await service.summaries(["p"])["p"]?.rating == RatingAggregate(count: 1, sum: 4))
        }
    }

    @Test func aLongTransactionHoldsTheHorizonWhileManyShortOnesCommitAndEachIsReadOnce() async throws {
        try await Self.withFeed { database, service in
            let long = try await TestPostgres.operatorConnection(to: database)
            defer { Task { try? await long.close() } }
            try await long.query("BEGIN", logger: database.logger)
            try await long.query("UPDATE place SET name = 'Long' WHERE id = 'q'", logger: database.logger)
            let start = service.indexRevision
            // Writes through the instance answer with their own place in the index, and say where they are in the feed.
            var positions: [Int64] = []
            for number in 0..<40 {
                let writes = RequestWrites()
                try await RequestWrites.$current.withValue(writes) {
                    var place = Self.place("short-\(number)")
                    place.updatedAt = place.updatedAt.addingTimeInterval(Double(number))
                    try await database.places.seed([place])
                    try await service.syncWrite(of: place.id)
                }
                #expect(try await Self.indexed(service, "short-\(number)") == "Place short-\(number)", "a write is in its own answer")
                positions.append(writes.writePosition)
            }
            #expect(service.indexRevision < positions.min() ?? 0, "the horizon stays below the open transaction")
            #expect(positions == positions.sorted() && positions.allSatisfy { $0 > start })
            // Read from the start meanwhile, the feed shows none of them: they are above the horizon.
            let held = try #require(try await database.places.changes(since: start, limit: 1_000))
            #expect(held.upserted.isEmpty && held.pending)
            try await long.query("COMMIT", logger: database.logger)
            try await Self.settle(service, database)
            // Once it commits, one read from the start shows every place once, and the revision passes every write.
            let all = try #require(try await database.places.changes(since: start, limit: 1_000))
            #expect(all.upserted.map(\.id).sorted() == (["q"] + (0..<40).map { "short-\($0)" }).sorted())
            #expect(all.revision >= positions.max() ?? .max, "an instance that catches up to a write's position has it")
            #expect(!all.pending)
            let again = try #require(try await database.places.changes(since: all.revision, limit: 1_000))
            #expect(again.upserted.isEmpty && again.deleted.isEmpty, "each change is read once")
        }
    }

    @Test func aWriterThatRollsBackLeavesNothingInTheFeedAndHoldsNothingBackAfterwards() async throws {
        try await Self.withFeed { database, service in
            let doomed = try await TestPostgres.operatorConnection(to: database)
            defer { Task { try? await doomed.close() } }
            let start = service.indexRevision
            try await doomed.query("BEGIN", logger: database.logger)
            try await doomed.query("UPDATE place SET name = 'Never' WHERE id = 'p'", logger: database.logger)
            try await doomed.query(
                "INSERT INTO place (id, kind, name, latitude, longitude, created_at, updated_at, revision) VALUES ('ghost', 'gem', 'Ghost', 1, 1, 'x', 'x', 0)",
                logger: database.logger
            )
            try await database.places.seed([Self.place("after")])
            try await doomed.query("ROLLBACK", logger: database.logger)
            try await Self.settle(service, database)
            let changes = try #require(try await database.places.changes(since: start, limit: 100))
            #expect(changes.upserted.map(\.id) == ["after"])
            #expect(changes.deleted.isEmpty && !changes.pending)
            try await Self.settle(service, database)
            #expect(try await Self.indexed(service, "p") == "Seeded")
            #expect(try await Self.indexed(service, "ghost") == nil)
            #expect(try await Self.indexed(service, "after") == "Place after")
        }
    }

    @Test func aSeedStillOpenHoldsNothingBackAndIsReadWholeOnceItCommits() async throws {
        try await Self.withFeed { database, service in
            let seed = try await database.places.beginSeed()
            var reseeded = Self.place("p", name: "Reseeded")
            reseeded.updatedAt = reseeded.updatedAt.addingTimeInterval(1)
            #expect(try await seed.upsert([Self.place("late-1"), reseeded, Self.place("late-2")]).isEmpty)
            // While it is open, a write of another place reaches the index: settling reads past the seed's transaction.
            var written = Self.place("q", name: "Written meanwhile")
            written.updatedAt = written.updatedAt.addingTimeInterval(1)
            try await database.places.update(written)
            try await Self.settle(service, database)
            #expect(try await Self.indexed(service, "q") == "Written meanwhile", "the open seed holds the feed back")
            #expect(try await Self.indexed(service, "late-1") == nil, "nothing of an open seed is seen")
            #expect(try await Self.indexed(service, "p") == "Seeded")
            let announcements = try await database.feedRows().filter { $0.kind == "late" }.count
            try await seed.commit()
            // Announced by the seed itself at once; the index reads the places its transaction wrote, though it read
            // past that transaction's position while it was open.
            try await Self.settle(service, database)
            #expect(try await Self.indexed(service, "late-1") == "Place late-1")
            #expect(try await Self.indexed(service, "late-2") == "Place late-2")
            #expect(try await Self.indexed(service, "p") == "Reseeded")
            #expect(try await Self.lateCommitsWaiting(database) == 0)
            #expect(try await database.feedRows().filter { $0.kind == "late" }.count == announcements + 1, "one announcement")
            let again = try #require(try await database.places.changes(since: service.indexRevision, limit: 100))
            #expect(again.upserted.isEmpty && again.deleted.isEmpty, "read once")
        }
    }

    @Test func aLateCommitWhoseWriterStoppedBeforeAnnouncingItIsAnnouncedByTheNextReaderAndARolledBackOneLeavesNothing() async throws {
        try await Self.withFeed { database, service in
            let rolledBack = try await database.places.beginSeed()
            #expect(try await rolledBack.upsert([Self.place("never")]).isEmpty)
            await rolledBack.rollback()
            #expect(try await Self.lateCommitsWaiting(database) == 0)
            // A seed as a process that stops right after its commit leaves it: committed, not announced.
            let seeder = try await TestPostgres.operatorConnection(to: database)
            defer { Task { try? await seeder.close() } }
            try await seeder.query("SET application_name = 'places-seed'", logger: database.logger)
            try await seeder.query("BEGIN", logger: database.logger)
            try await seeder.query("INSERT INTO feed_late_commit (xid) VALUES (pg_current_xact_id())", logger: database.logger)
            try await seeder.query("UPDATE place SET name = 'Late' WHERE id = 'r'", logger: database.logger)
            var written = Self.place("q", name: "Written meanwhile")
            written.updatedAt = written.updatedAt.addingTimeInterval(1)
            try await database.places.update(written)
            try await Self.settle(service, database)
            #expect(try await Self.indexed(service, "q") == "Written meanwhile")
            try await seeder.query("COMMIT", logger: database.logger)
            #expect(try await Self.lateCommitsWaiting(database) == 1)
            try await Self.settle(service, database)
            #expect(try await Self.indexed(service, "r") == "Late", "the reader announced it and read it")
            #expect(try await Self.lateCommitsWaiting(database) == 0)
            #expect(try await Self.indexed(service, "never") == nil)
        }
    }

    /// How many late commits wait to be announced.
    static func lateCommitsWaiting(_ database: PostgresPlacesDatabase) async throws -> Int {
        try await database.read { connection in
            try await connection.value("SELECT count(*)::integer FROM feed_late_commit", as: Int.self, logger: database.logger) ?? -1
        }
    }

    @Test func theInstancesOwnConnectionsEndATransactionLeftIdleSayWhoTheyAreAndCompileNothing() async throws {
        try await Self.withFeed { database, _ in
            let (timeout, name, jit) = try await database.read { connection in
                let row = try #require(
                    try await connection.row(
                        """
                        SELECT current_setting('idle_in_transaction_session_timeout') AS timeout, current_setting('application_name') AS name,
                            current_setting('jit') AS jit
                        """,
                        logger: database.logger
                    )
                )
                return (try row.get("timeout", as: String.self), try row.get("name", as: String.self), try row.get("jit", as: String.self))
            }
            #expect(timeout == "1min", "an open transaction forgotten by a client holds every instance's feed back")
            #expect(name == "places/" + (database.schema ?? ""))
            #expect(jit == "off", "a sync's read of a large feed was compiled, 0.7 s of the server's CPU each time")
        }
    }

    @Test func anOperatorsPlainSQLReachesTheFeed() async throws {
        try await Self.withFeed { database, service in
            let psql = try await TestPostgres.operatorConnection(to: database)
            defer { Task { try? await psql.close() } }
            try await psql.query("UPDATE place SET deleted_at = '2026-01-01T00:00:00.000Z' WHERE id = 'r'", logger: database.logger)
            try await Self.settle(service, database)
            #expect(try await Self.indexed(service, "r") == nil)
        }
    }
}
