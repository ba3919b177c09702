import Foundation
import Logging
import PlacesCore
import PostgresNIO
import Synchronization

/// The PostgreSQL database behind several Places instances: a pool of connections (postgres-nio's `PostgresClient`,
/// run for as long as the value lives), migrated to the current schema when opened.
///
/// The repositories reach it through its accesses (`PostgresPlacesDatabase+Access.swift`), each bounded by a
/// watchdog (`AccessWatchdog.swift`), its failures told in words of our own (`PostgresPlacesDatabase+Failures.swift`);
/// why a connection could not be had is found out in `+Diagnosis`, and commits are announced to the other instances
/// in `+Feed`.
public final class PostgresPlacesDatabase: Sendable {
    /// Where the database is (its description never shows the password).
    public let location: PostgresLocation
    /// The schema every connection works in, when not the database's default (`public`).
    public let schema: String?
    let client: PostgresClient
    let logger: Logger
    /// How long an access waits for a connection before it fails `unavailable`.
    let leaseTimeout: Duration
    /// The pool's gauges.
    let gauges = PoolGauges()
    /// When a failure to get a connection was last diagnosed (`noConnection(waited:)`).
    let diagnosing = Mutex<ContinuousClock.Instant?>(nil)
    /// Rung when a writing access commits: `announceCommits` then wakes the other instances.
    let committed = Doorbell()
    /// Rung when a writing access commits: `committed`, and this process's own listeners (live streams).
    let commits = Doorbells()
    /// What this process's wake-ups carry, so that its own listener lets them pass: its own place writes are in its
    /// index already (each write's sync re-reads its place), and a sync for nothing costs a read of the feed.
    let wakeUpPayload = UUID().uuidString
    private let running: Task<Void, Never>
    private let announcing = Mutex<Task<Void, Never>?>(nil)

    /// The most connections an instance's pool opens unless its operator says otherwise (`serve
    /// --database-connections`): the change feed's listener holds one of them.
    public static let defaultConnections = 20

    /// Connects to the database at `location` and migrates it; `schema`, when given, is the schema every connection
    /// works in (tests give each case a schema of its own). `unavailable` saying what is wrong when the server cannot
    /// be reached, refuses the user or the password, has no such database or no TLS where the URL requires it, or
    /// when its schema is newer than this binary knows.
    public static func open(
        _ location: PostgresLocation,
        schema: String? = nil,
        maximumConnections: Int = PostgresPlacesDatabase.defaultConnections,
        leaseTimeout: Duration = .seconds(3),
        logger: Logger = Logger(label: "places.postgres")
    ) async throws -> PostgresPlacesDatabase {
        var configuration = location.configuration
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = startupParameters(schema: schema)
        // The pool's own messages (each failed attempt to connect, while the server is down) only at debug level.
        var background = logger
        if background.logLevel > .debug { background.logLevel = .warning }
        // One direct connection first: the pool would only say that it waited, whatever the reason.
        if let failure = await diagnose(location, schema: schema, within: .seconds(5), logger: logger) { throw failure }
        let client = PostgresClient(configuration: configuration, eventLoopGroup: PostgresPlacesDatabase.accessLoop, backgroundLogger: background)
        let database = PostgresPlacesDatabase(location: location, schema: schema, client: client, logger: logger, leaseTimeout: leaseTimeout)
        do {
            try await database.migrate()
        } catch {
            database.close()
            throw error
        }
        database.announcing.withLock { $0 = Task { [weak database] in await database?.announceCommits() } }
        return database
    }

    private init(location: PostgresLocation, schema: String?, client: PostgresClient, logger: Logger, leaseTimeout: Duration) {
        self.location = location
        self.leaseTimeout = leaseTimeout
        self.schema = schema
        self.client = client
        self.logger = logger
        commits.add(committed)
        // Started at once, so the client runs before the first query leases a connection.
        running = Task.immediate { await client.run() }
    }

    deinit {
        running.cancel()
        announcing.withLock { $0?.cancel() }
    }

    /// How this process names itself to the server (`application_name`): `places`, or `places/SCHEMA` for a schema of
    /// its own. The feed's horizon leaves out the transactions of another Places schema (`FeedHorizon`).
    public var applicationName: String { PostgresPlacesDatabase.applicationName(schema: schema) }

    static func applicationName(schema: String?) -> String { schema.map { "places/" + $0 } ?? "places" }

    /// What every connection of the pool sets as it starts: its schema, its name (`name`, else `applicationName`), a
    /// limit on a transaction left open and idle (any open writing transaction holds the change feed back for every
    /// instance), and no JIT compilation. The statements are short; their plans' costs are estimated from the whole
    /// feed, so past a million rows PostgreSQL compiled the index's read of the feed, every time, for 0.7 s of its
    /// CPU (a read that takes a millisecond), at every sync of every instance.
    static func startupParameters(schema: String?, name: String? = nil) -> [(String, String)] {
        var parameters = [
            ("application_name", name ?? applicationName(schema: schema)), ("idle_in_transaction_session_timeout", "60s"), ("jit", "off"),
        ]
        if let schema { parameters.append(("search_path", schema)) }
        return parameters
    }

    /// Closes every connection; the value cannot be used afterwards.
    public func close() {
        announcing.withLock { $0?.cancel() }
        running.cancel()
    }

    /// Removes the schema and everything in it (a test's own schema, when the test is done); nothing without one.
    public func dropSchema() async throws {
        guard let schema else { return }
        _ = try await change(within: .none) { [logger] connection in
            try await connection.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(PostgresPlacesDatabase.quoted(schema)) CASCADE"), logger: logger)
        }
    }

    /// An SQL identifier, quoted.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

}

extension PostgresPlacesDatabase {
    /// Creates an empty database called `name` on the server at `server` (whose own database it connects to); for
    /// tests and tools that need a database of their own.
    ///
    /// Its connection is named `createDatabaseName`. `CREATE DATABASE` takes a transaction id in the database it is
    /// run from and writes no change feed there, and a connection with another name would hold that database's feeds
    /// back while it runs (every Places schema's horizon, for as long as the copy of the template takes: the tests'
    /// cases that read a horizon failed so, now and then, while another case made its database).
    public static func createDatabase(_ name: String, on server: PostgresLocation) async throws {
        var configuration = server.configuration
        configuration.options.additionalStartupParameters = startupParameters(schema: nil, name: createDatabaseName)
        let client = PostgresClient(configuration: configuration)
        let running = Task.immediate { await client.run() }
        defer { running.cancel() }
        do {
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(quoted(name))"))
        } catch let error as PSQLError {
            throw diagnosis(of: error, at: server)
        }
    }
}
