import Foundation
import Logging
import PlacesCore
import PostgresNIO
import Synchronization

/// The PostgreSQL database behind several Places instances: a pool of connections (postgres-nio's `PostgresClient`,
/// run for as long as the value lives), migrated to the current schema when opened.
public final class PostgresPlacesDatabase: Sendable {
    /// Where the database is (its description never shows the password).
    public let location: PostgresLocation
    /// The schema every connection works in, when not the database's default (`public`).
    public let schema: String?
    let client: PostgresClient
    let logger: Logger
    /// How long an access waits for a connection before it fails `unavailable`.
    let leaseTimeout: Duration
    private let running: Task<Void, Never>

    /// Connects to the database at `location` and migrates it; `schema`, when given, is the schema every connection
    /// works in (tests give each case a schema of its own). `unavailable` when the server cannot be reached or its
    /// schema is newer than this binary knows.
    public static func open(
        _ location: PostgresLocation,
        schema: String? = nil,
        maximumConnections: Int = 20,
        leaseTimeout: Duration = .seconds(3),
        logger: Logger = Logger(label: "places.postgres")
    ) async throws -> PostgresPlacesDatabase {
        var configuration = location.configuration
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .seconds(5)
        if let schema { configuration.options.additionalStartupParameters = [("search_path", schema)] }
        // The pool's own messages (each failed attempt to connect, while the server is down) only at debug level.
        var background = logger
        if background.logLevel > .debug { background.logLevel = .warning }
        let client = PostgresClient(configuration: configuration, backgroundLogger: background)
        let database = PostgresPlacesDatabase(location: location, schema: schema, client: client, logger: logger, leaseTimeout: leaseTimeout)
        do {
            try await database.migrate()
        } catch {
            database.close()
            throw error
        }
        return database
    }

    private init(location: PostgresLocation, schema: String?, client: PostgresClient, logger: Logger, leaseTimeout: Duration) {
        self.location = location
        self.leaseTimeout = leaseTimeout
        self.schema = schema
        self.client = client
        self.logger = logger
        // Started at once, so the client runs before the first query leases a connection.
        running = Task.immediate { await client.run() }
    }

    deinit { running.cancel() }

    /// Closes every connection; the value cannot be used afterwards.
    public func close() {
        running.cancel()
    }

    /// Removes the schema and everything in it (a test's own schema, when the test is done); nothing without one.
    public func dropSchema() async throws {
        guard let schema else { return }
        try await read { [logger] connection in
            try await connection.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(PostgresPlacesDatabase.quoted(schema)) CASCADE"), logger: logger)
        }
    }

    /// An SQL identifier, quoted.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Runs statements outside a transaction (each statement is then its own), turning database errors into
    /// `PlacesError`; the body's own errors pass unchanged.
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await leased(body)
    }

    /// Runs one transaction (READ COMMITTED, PostgreSQL's default), committed when the body returns and rolled back
    /// when it throws; database errors become `PlacesError`, the body's own errors pass unchanged.
    func write<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await transaction("BEGIN", body)
    }

    /// Runs reads that must agree (a counter and the rows at that counter) in one read-only snapshot of the database.
    func snapshot<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    /// Runs the body between `begin` and COMMIT on one connection, rolling back when it throws.
    private func transaction<T: Sendable>(
        _ begin: PostgresQuery,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await leased { [logger] connection in
            try await connection.query(begin, logger: logger)
            do {
                let value = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                // A connection the server cut is not returned to a usable state by ROLLBACK; the pool drops it.
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// Runs the body on a connection of the pool, its `PSQLError` turned into `PlacesError`. The pool waits for the
    /// server for as long as it takes; a request does not: without a connection within `leaseTimeout` (the server is
    /// down or restarting, or every connection is busy), the access fails `unavailable` (try again), and the body,
    /// once it has a connection, runs as long as it needs.
    private func leased<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let leased = LeaseFlag()
        let (client, timeout, location) = (client, leaseTimeout, location)
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    try await client.withConnection { connection in
                        leased.set()
                        return try await body(connection)
                    }
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    guard leased.isSet else {
                        throw PostgresPlacesDatabase.unavailable("the database at \(location) gave no connection within \(timeout); try again")
                    }
                    return nil
                }
                while let result = try await group.next() {
                    if let result {
                        group.cancelAll()
                        return result
                    }
                }
                throw CancellationError()
            }
        } catch let error as PSQLError {
            throw PostgresPlacesDatabase.mapped(error, location: location)
        }
    }

    /// The `PlacesError` a database failure means for a user: a broken rule of the schema is a conflict, a server that
    /// cannot be reached is unavailable (try again), anything else an internal error, logged without the password.
    static func mapped(_ error: PSQLError, location: PostgresLocation) -> PlacesError {
        if let state = error.serverInfo?[.sqlState] {
            switch state {
            case PostgresError.Code.uniqueViolation.raw, PostgresError.Code.foreignKeyViolation.raw,
                PostgresError.Code.checkViolation.raw:
                return PlacesError(.conflict, "the change conflicts with what is stored")
            case PostgresError.Code.serializationFailure.raw, PostgresError.Code.deadlockDetected.raw,
                PostgresError.Code.lockNotAvailable.raw, PostgresError.Code.adminShutdown.raw, PostgresError.Code.crashShutdown.raw,
                PostgresError.Code.cannotConnectNow.raw, PostgresError.Code.tooManyConnections.raw:
                return unavailable("the database is busy; try again")
            default:
                let message = error.serverInfo?[.message] ?? state
                return PlacesError(.internalError, "database failure: \(message)")
            }
        }
        return unavailable("the database at \(location) cannot be reached: \(reason(error))")
    }

    /// `unavailable`, to be tried again in a second (the answer's `Retry-After`).
    static func unavailable(_ message: String) -> PlacesError {
        var error = PlacesError(.unavailable, message)
        error.retryAfterSeconds = 1
        return error
    }

    /// A short reason for a failure that did not come from the server (the connection's own).
    static func reason(_ error: PSQLError) -> String {
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }
}

/// Set once an access has its connection.
private final class LeaseFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
