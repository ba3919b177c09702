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

    /// How long an access may take, from asking for a connection to its answer, unless it says otherwise: a request
    /// is answered `unavailable` rather than held when the database does not answer in time.
    static let patience = Duration.seconds(10)

    /// Runs statements outside a transaction (each statement is then its own), turning database errors into
    /// `PlacesError`; the body's own errors pass unchanged. `within` bounds the whole access (nil: unbounded).
    func read<T: Sendable>(
        within patience: Duration? = PostgresPlacesDatabase.patience,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await leased(within: patience, body)
    }

    /// Runs one transaction (READ COMMITTED, PostgreSQL's default), committed when the body returns and rolled back
    /// when it throws; database errors become `PlacesError`, the body's own errors pass unchanged.
    func write<T: Sendable>(
        within patience: Duration? = PostgresPlacesDatabase.patience,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await transaction("BEGIN", within: patience, body)
    }

    /// Runs reads that must agree (a counter and the rows at that counter) in one read-only snapshot of the database.
    func snapshot<T: Sendable>(
        within patience: Duration? = PostgresPlacesDatabase.patience,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", within: patience, body)
    }

    /// Runs the body between `begin` and COMMIT on one connection, rolling back when it throws.
    private func transaction<T: Sendable>(
        _ begin: PostgresQuery,
        within patience: Duration?,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await leased(within: patience) { [logger] connection in
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

    /// Runs the body on a connection of the pool, its `PSQLError` turned into `PlacesError`.
    ///
    /// The pool waits for the server for as long as it takes, and a query sent on a connection the server has just cut
    /// can wait forever (postgres-nio 1.33 drops it unanswered); a request does neither. The body runs in a task of its
    /// own, and the caller is answered `unavailable` (try again) when there is no connection within `leaseTimeout`, or
    /// no answer within `patience`: the connection is then closed, so a transaction left open on it can never commit
    /// afterwards, and the pool replaces it.
    private func leased<T: Sendable>(
        within patience: Duration?,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let (client, leaseTimeout, location) = (client, leaseTimeout, location)
        return try await withCheckedThrowingContinuation { continuation in
            let access = Access<T>(continuation)
            let work = Task {
                do {
                    let value = try await client.withConnection { connection in
                        // Given up on while waiting for the connection: the body never runs.
                        guard access.start(on: connection) else { throw CancellationError() }
                        return try await body(connection)
                    }
                    access.finish(.success(value))
                } catch let error as PSQLError {
                    access.finish(.failure(PostgresPlacesDatabase.mapped(error, location: location)))
                } catch {
                    access.finish(.failure(error))
                }
            }
            access.watchdog = Task {
                try? await Task.sleep(for: leaseTimeout)
                if access.abandonIfWaiting(PostgresPlacesDatabase.unavailable("the database at \(location) gave no connection within \(leaseTimeout); try again")) {
                    work.cancel()
                    return
                }
                guard let patience, patience > leaseTimeout else { return }
                try? await Task.sleep(for: patience - leaseTimeout)
                if let connection = access.abandonIfRunning(PostgresPlacesDatabase.unavailable("the database at \(location) did not answer within \(patience); try again")) {
                    work.cancel()
                    try? await connection.close()
                }
            }
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
            case _ where unavailableStates.contains { state.hasPrefix($0) }:
                // Busy, restarting, out of room, read-only after a failover, or a password changed under us: try again.
                let message = error.serverInfo?[.message] ?? state
                return unavailable("the database cannot answer now (\(state): \(message)); try again")
            default:
                let message = error.serverInfo?[.message] ?? state
                return PlacesError(.internalError, "database failure: \(message)")
            }
        }
        return unavailable("the database at \(location) cannot be reached: \(reason(error))")
    }

    /// SQLSTATEs (and classes, by their first two characters) that mean the database cannot answer now rather than
    /// that the request is wrong: connection exceptions (08), invalid authorization (28), a missing database (3D000),
    /// a read-only transaction (25006, a standby after a failover), transaction rollbacks such as serialization
    /// failures and deadlocks (40), insufficient resources (53), operator intervention such as a shutdown or a
    /// cancelled statement (57), a lock not available (55P03).
    static let unavailableStates = ["08", "28", "3D000", "25006", "40", "53", "57", "55P03"]

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

/// One access to the database, seen by its work and its watchdog: which of them answers the caller, exactly once.
private final class Access<T: Sendable>: Sendable {
    private enum Phase {
        /// Waiting for a connection.
        case waiting
        /// The body runs on this connection.
        case running(PostgresConnection)
        /// The caller has its answer.
        case answered
    }

    private struct State {
        var phase = Phase.waiting
        var continuation: CheckedContinuation<T, any Error>?
        var watchdog: Task<Void, Never>?
    }

    private let state: Mutex<State>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        state = Mutex(State(continuation: continuation))
    }

    /// The task that gives up on the access; cancelled once the caller is answered.
    var watchdog: Task<Void, Never>? {
        get { state.withLock { $0.watchdog } }
        set {
            let answered = state.withLock { state in
                state.watchdog = newValue
                if case .answered = state.phase { return true }
                return false
            }
            if answered { newValue?.cancel() }
        }
    }

    /// Moves to running on `connection`; false when the caller was already answered.
    func start(on connection: PostgresConnection) -> Bool {
        state.withLock { state in
            guard case .waiting = state.phase else { return false }
            state.phase = .running(connection)
            return true
        }
    }

    /// Answers the caller with the body's outcome, unless it was answered already.
    func finish(_ result: Result<T, any Error>) {
        let (continuation, watchdog) = state.withLock { state in
            let taken = (state.continuation, state.watchdog)
            state.continuation = nil
            state.phase = .answered
            return taken
        }
        watchdog?.cancel()
        continuation?.resume(with: result)
    }

    /// Answers the caller with `error` if the access is still waiting for a connection; true when it did.
    func abandonIfWaiting(_ error: PlacesError) -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<T, any Error>? in
            guard case .waiting = state.phase else { return nil }
            state.phase = .answered
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(throwing: error)
        return continuation != nil
    }

    /// Answers the caller with `error` if the body is still running, and hands back its connection to close.
    func abandonIfRunning(_ error: PlacesError) -> PostgresConnection? {
        let taken = state.withLock { state -> (CheckedContinuation<T, any Error>, PostgresConnection)? in
            guard case .running(let connection) = state.phase, let continuation = state.continuation else { return nil }
            state.phase = .answered
            state.continuation = nil
            return (continuation, connection)
        }
        guard let (continuation, connection) = taken else { return nil }
        continuation.resume(throwing: error)
        return connection
    }
}

extension PostgresPlacesDatabase {
    /// Creates an empty database called `name` on the server at `server` (whose own database it connects to); for
    /// tests and tools that need a database of their own.
    public static func createDatabase(_ name: String, on server: PostgresLocation) async throws {
        let client = PostgresClient(configuration: server.configuration)
        let running = Task.immediate { await client.run() }
        defer { running.cancel() }
        do {
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(quoted(name))"))
        } catch let error as PSQLError {
            throw mapped(error, location: server)
        }
    }
}
