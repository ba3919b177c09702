import Foundation
import PlacesCore
import PlacesTestPostgres
import PostgresNIO
import Testing

@testable import PlacesPostgres

/// What an operator is told when the database cannot be used, and what a client is told when it stops answering.
@Suite("PostgreSQL failures", TestPostgres.enabled)
struct PostgresFailureTests {
    /// The tests' server, changed by `change`.
    static func server(_ change: (inout PostgresLocation) -> Void) throws -> PostgresLocation {
        var location = try TestPostgres.location()
        change(&location)
        return location
    }

    /// The error opening `location` throws.
    static func openingError(_ location: PostgresLocation) async throws -> PlacesError {
        do {
            let database = try await PostgresPlacesDatabase.open(location, maximumConnections: 1, leaseTimeout: .seconds(30))
            database.close()
        } catch let error as PlacesError {
            return error
        }
        Issue.record("\(location) opened")
        return PlacesError(.internalError, "opened")
    }

    @Test func aWrongPasswordSaysAuthenticationFailed() async throws {
        let error = try await Self.openingError(try Self.server { $0.password = "not-the-password" })
        #expect(error.code == .unavailable && error.cause == "authentication_failed")
        #expect(error.message.contains("authentication failed") && !error.message.contains("not-the-password"))
    }

    @Test func aMissingDatabaseSaysItDoesNotExist() async throws {
        let error = try await Self.openingError(try Self.server { $0.database = "no_such_database_here" })
        #expect(error.code == .unavailable && error.cause == "no_such_database")
        #expect(error.message.contains("'no_such_database_here' does not exist"))
    }

    @Test func tlsRequiredButNotOfferedSaysSo() async throws {
        // The tests' private server runs without TLS.
        let error = try await Self.openingError(try Self.server { $0.sslMode = .require })
        #expect(error.code == .unavailable && error.cause == "tls_unavailable")
        #expect(error.message.contains("does not offer TLS") && error.message.contains("sslmode=require"))
    }

    @Test func nothingListeningSaysConnectionRefused() async throws {
        let error = try await Self.openingError(try Self.server { $0.port = 1 })
        #expect(error.code == .unavailable && error.cause == "unreachable")
        #expect(error.message.contains("connection refused"))
    }

    @Test func aRequestsAccessesShareOneDeadline() async throws {
        let database = try await TestPostgres.database()
        // Each access alone fits in the deadline; the second starts with too little of it left.
        let error = await #expect(throws: PlacesError.self) {
            try await DatabaseDeadline.within(.milliseconds(1_500)) {
                _ = try await database.read { try await $0.query("SELECT pg_sleep(1)", logger: database.logger) }
                _ = try await database.read { try await $0.query("SELECT pg_sleep(1)", logger: database.logger) }
            }
        }
        #expect(error?.code == .unavailable && error?.cause == "timeout" && error?.retryAfterSeconds == 1)
        #expect(error.map { !$0.message.contains("127.0.0.1") && !$0.message.contains("pg_sleep") } == true)
        // Outside a request, an access keeps its own bound.
        _ = try await database.read { try await $0.query("SELECT pg_sleep(0.1)", logger: database.logger) }
        try await PostgresStore(database: database).close()
    }

    @Test func aCommitWhoseAnswerIsLostHasAnUnknownOutcome() async throws {
        let database = try await TestPostgres.database()
        // What holds the database's answers back is a lock the test holds, not a clock: an advisory lock keyed by the
        // case's schema, in the two-key space, which the server's own locks do not use. A held statement then waits
        // until the test lets it go, however late the deadline's watchdog runs on a busy machine and however long the
        // statements before it took. (Held for a fixed time instead, by pg_sleep(2) against a deadline of 500 ms, the
        // commit was not yet under way when BEGIN and the INSERT alone took longer than that: `unavailable`.)
        let lock = "hashtext(current_schema()), 0"
        // A deferred trigger runs at COMMIT, and waits there for the lock.
        try await database.write { connection in
            try await connection.query("CREATE TABLE slow_commit (id int)", logger: database.logger)
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        CREATE FUNCTION hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                        BEGIN PERFORM pg_advisory_xact_lock(\(lock)); RETURN NULL; END $$
                        """
                ),
                logger: database.logger
            )
            try await connection.query(
                """
                CREATE CONSTRAINT TRIGGER hold_commit AFTER INSERT ON slow_commit DEFERRABLE INITIALLY DEFERRED
                FOR EACH ROW EXECUTE FUNCTION hold_commit()
                """,
                logger: database.logger
            )
        }
        let holder = try await TestPostgres.operatorConnection(to: database)
        try await holder.query(PostgresQuery(unsafeSQL: "SELECT pg_advisory_lock(\(lock))"), logger: database.logger)
        // The deadline passes while the COMMIT waits. It bounds BEGIN and the INSERT alone, as far above what they need
        // as the suite's other bounds of database work.
        let error = await #expect(throws: PlacesError.self) {
            try await DatabaseDeadline.within(.seconds(10)) {
                _ = try await database.write { try await $0.query("INSERT INTO slow_commit VALUES (1)", logger: database.logger) }
            }
        }
        #expect(error?.code == .outcomeUnknown && error?.retryAfterSeconds == 1)
        // A write that had not reached COMMIT is plainly unavailable: nothing was changed. Its first statement waits
        // for the lock, so the deadline passes before the INSERT is ever sent.
        let before = await #expect(throws: PlacesError.self) {
            try await DatabaseDeadline.within(.milliseconds(500)) {
                try await database.write { connection in
                    try await connection.query(PostgresQuery(unsafeSQL: "SELECT pg_advisory_xact_lock(\(lock))"), logger: database.logger)
                    try await connection.query("INSERT INTO slow_commit VALUES (2)", logger: database.logger)
                }
            }
        }
        #expect(before?.code == .unavailable)
        // The held statements go on (their clients are gone), and the schema is dropped after them.
        try await holder.query(PostgresQuery(unsafeSQL: "SELECT pg_advisory_unlock(\(lock))"), logger: database.logger)
        try await holder.close()
        try await PostgresStore(database: database).close()
    }

    @Test func aDatabaseErrorReachesNoClientInItsOwnWords() async throws {
        let database = try await TestPostgres.database()
        let error = await #expect(throws: PlacesError.self) {
            _ = try await database.read { try await $0.query("SELECT no_such_column FROM place", logger: database.logger) }
        }
        #expect(error?.code == .internalError)
        #expect(error.map { !$0.message.contains("no_such_column") && !$0.message.contains("does not exist") } == true)
        try await PostgresStore(database: database).close()
    }
}
