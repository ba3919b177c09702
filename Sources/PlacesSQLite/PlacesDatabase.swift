import Foundation
import GRDB
import GeoIndex
import PlacesCore

/// The SQLite database behind Places: a WAL `DatabasePool` for a file, a `DatabaseQueue` in memory for tests,
/// migrated to the current schema when opened.
public struct PlacesDatabase: Sendable {
    let writer: any DatabaseWriter
    /// Hears every access (one await of a read or a write), for tests that count a request's round trips.
    let accessed: (@Sendable () -> Void)?
    /// Rung when a write of this process commits, for its own listeners (live streams).
    let commits = Doorbells()

    /// Opens (creating if missing) the database file at `path` and migrates it; `readOnly` opens an existing,
    /// migrated file without ever writing to it (the CLI's queries).
    public init(path: String, readOnly: Bool = false) throws {
        do {
            var configuration = Configuration()
            configuration.readonly = readOnly
            configuration.busyMode = .timeout(10)
            configuration.prepareDatabase { db in
                // A 2xx answer means the write survives a power loss.
                try db.execute(sql: "PRAGMA synchronous = FULL")
                PlacesDatabase.addFunctions(db)
            }
            let pool = try DatabasePool(path: path, configuration: configuration)
            if readOnly {
                guard try pool.read(PlacesDatabase.migrator.hasCompletedMigrations) else {
                    throw PlacesError(.unavailable, "database '\(path)' has an older schema; run `places serve` or `places seed` on it once")
                }
            }
            try self.init(writer: pool, migrate: !readOnly)
        } catch let error as PlacesError {
            throw error
        } catch {
            throw PlacesError(.unavailable, "cannot open database '\(path)': \(PlacesDatabase.reason(error))")
        }
    }

    /// An empty in-memory database, for tests; `statements`, when given, hears the SQL of every statement it runs
    /// (BEGIN and COMMIT included), and `accesses` every read or write it is asked for, so a test can count a request's
    /// round trips.
    public static func inMemory(
        statements: (@Sendable (String) -> Void)? = nil,
        accesses: (@Sendable () -> Void)? = nil
    ) throws -> PlacesDatabase {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            PlacesDatabase.addFunctions(db)
            if let statements {
                db.trace { event in
                    // A trigger's statements run inside the statement that fired it: not one of the caller's.
                    let text = event.description
                    if !text.hasPrefix("-- ") { statements(text) }
                }
            }
        }
        return try PlacesDatabase(writer: DatabaseQueue(configuration: configuration), accessed: accesses)
    }

    /// `places_fold(text)`: the text as searches compare it (`String.folded`).
    static func addFunctions(_ db: Database) {
        db.add(
            function: DatabaseFunction("places_fold", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map(\.folded)
            }
        )
    }

    private init(writer: any DatabaseWriter, migrate: Bool = true, accessed: (@Sendable () -> Void)? = nil) throws {
        self.writer = writer
        self.accessed = accessed
        guard migrate else { return }
        do {
            try PlacesDatabase.migrator.migrate(writer)
        } catch {
            throw PlacesError(.unavailable, "cannot migrate database: \(PlacesDatabase.reason(error))")
        }
    }

    /// The place repository over this database.
    public var places: SQLitePlaceRepository { SQLitePlaceRepository(database: self) }

    /// Runs a read, turning database errors into `PlacesError`; the body's own errors pass unchanged.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await access { try await writer.read(body) }
    }

    /// Runs a read made of one statement, without BEGIN and COMMIT around it: SQLite runs a lone statement in a read
    /// transaction of its own, so it sees one state of the database anyway. Never for two statements that must agree.
    func readStatement<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await access { try await writer.unsafeRead(body) }
    }

    /// Runs one write transaction, turning database errors into `PlacesError`; the body's own errors pass unchanged.
    /// `ringing: false` for a write that adds nothing to the change feed (live streams' leases): no reader of it wakes.
    func write<T: Sendable>(ringing: Bool = true, _ body: @Sendable (Database) throws -> T) async throws -> T {
        let value = try await access { try await writer.write(body) }
        RequestWrites.current?.committed()
        if ringing { commits.ring() }
        return value
    }

    /// One access to the database: counted for `accessed`, its `DatabaseError` turned into `PlacesError`.
    private func access<T>(_ run: () async throws -> T) async throws -> T {
        accessed?()
        do {
            return try await run()
        } catch let error as DatabaseError {
            throw PlacesDatabase.mapped(error)
        }
    }

    static func mapped(_ error: DatabaseError) -> PlacesError {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return PlacesError(.unavailable, "the database is busy; try again", cause: .databaseBusy)
        case .SQLITE_CONSTRAINT:
            return PlacesError(.conflict, "the change conflicts with what is stored")
        default:
            // The database's own words go to the log (the edge logs `detail`), never to a client.
            var failure = PlacesError(.internalError, "the database failed to answer; the failure was logged")
            failure.detail = reason(error)
            return failure
        }
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }
}
