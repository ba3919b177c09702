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

    /// Connects to the database at `location` and migrates it; `schema`, when given, is the schema every connection
    /// works in (tests give each case a schema of its own). `unavailable` saying what is wrong when the server cannot
    /// be reached, refuses the user or the password, has no such database or no TLS where the URL requires it, or
    /// when its schema is newer than this binary knows.
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

    /// What every connection of the pool sets as it starts: its schema, its name (`name`, else `applicationName`), and a
    /// limit on a transaction left open and idle (any open writing transaction holds the change feed back for every instance).
    static func startupParameters(schema: String?, name: String? = nil) -> [(String, String)] {
        var parameters = [("application_name", name ?? applicationName(schema: schema)), ("idle_in_transaction_session_timeout", "60s")]
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

    /// How long an access may take, from asking for a connection to its answer.
    enum Bound: Sendable {
        /// Until the request's deadline (`DatabaseDeadline`, about 3 s for the whole request), or `patience` outside a
        /// request.
        case request
        /// Its own limit, whatever the request's: a long read such as the index's full load.
        case own(Duration)
        /// No limit: seeds, copies and migrations, which an operator starts and watches.
        case none
    }

    /// How long an access outside a request may take once it has a connection, when it does not say otherwise (it
    /// first waits up to `leaseTimeout` for the connection: 3 s in a server, 30 s for an operator's command).
    static let patience = Duration.seconds(10)

    /// Runs statements that only read, outside a transaction, turning database errors into `PlacesError`; the body's
    /// own errors pass unchanged.
    func read<T: Sendable>(within bound: Bound = .request, _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await leased(.statements(writing: false), within: bound, body)
    }

    /// Runs statements that write outside a transaction (each statement is then its own): when the database stops
    /// answering once one was sent, the caller is told `outcome_unknown`, since it may have been committed.
    func change<T: Sendable>(within bound: Bound = .request, _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await leased(.statements(writing: true), within: bound, body)
    }

    /// Runs statements that write outside a transaction, as `change` does, but rings no doorbell when they commit: for
    /// writes that add nothing to the change feed (live streams' leases), so that no reader of it wakes for them.
    @discardableResult
    func quietChange<T: Sendable>(
        within bound: Bound = .request,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await leased(.statements(writing: true), within: bound, ringing: false, body)
    }

    /// Runs one transaction (READ COMMITTED, PostgreSQL's default), committed when the body returns and rolled back
    /// when it throws; database errors become `PlacesError`, the body's own errors pass unchanged. When COMMIT was
    /// sent and its answer never came, the caller is told `outcome_unknown`.
    func write<T: Sendable>(within bound: Bound = .request, _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await leased(.transaction("BEGIN", writing: true), within: bound, body)
    }

    /// Runs reads that must agree (a counter and the rows at that counter) in one read-only snapshot of the database.
    func snapshot<T: Sendable>(within bound: Bound = .request, _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await leased(.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", writing: false), within: bound, body)
    }

    /// What an access runs on its connection.
    enum AccessKind: Sendable {
        /// Statements outside a transaction; `writing` when one of them may change something.
        case statements(writing: Bool)
        /// The body between `begin` and COMMIT, rolled back when it throws; `writing` unless read-only.
        case transaction(PostgresQuery, writing: Bool)
    }

    /// Runs the body on a connection of the pool, its `PSQLError` turned into a `PlacesError` a client may see (the
    /// database's own words and address go to the log, never to the caller).
    ///
    /// The pool waits for the server for as long as it takes (vapor/postgres-nio#489 and #602: a pool that cannot
    /// connect, for a wrong password or a missing database, only logs why), and a query sent on a connection that was
    /// just closed, or to a server that stopped (SIGSTOP, a network that drops packets), can wait forever: postgres-nio
    /// 1.33 writes a query to a closed channel with no promise (the case vapor/postgres-nio#487 fixed for a closure in
    /// the middle of a query, not before it) and keeps no timeout of its own, so a pooled idle connection to a frozen
    /// server is handed out at once and its query never answered. A request does neither. The body runs in a task of its
    /// own, and the caller is answered `unavailable` (try again) when there is no connection by the lease's limit, or
    /// no answer by the bound: the connection is then closed, so a transaction left open on it can never commit
    /// afterwards, and the pool replaces it. When the answer to a COMMIT (or to a write outside a transaction) was
    /// lost, the caller is answered `outcome_unknown` instead.
    private func leased<T: Sendable>(
        _ kind: AccessKind,
        within bound: Bound,
        ringing: Bool = true,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let asked = ContinuousClock.now
        let deadline: ContinuousClock.Instant? =
            switch bound {
            case .request: DatabaseDeadline.current ?? asked + leaseTimeout + PostgresPlacesDatabase.patience
            case .own(let limit): asked + limit
            case .none: nil
            }
        if let deadline, deadline <= asked {
            // The request spent its time before it got here (hashing a password, say): nothing is sent.
            throw PostgresPlacesDatabase.unavailable("the database did not answer in time; try again", cause: .timeout)
        }
        let leaseDeadline = deadline.map { min($0, asked + leaseTimeout) } ?? asked + leaseTimeout
        let (client, logger, gauges) = (client, logger, gauges)
        return try await withCheckedThrowingContinuation { continuation in
            let access = Access<T>(continuation)
            let work = Task(executorPreference: bound.isRequest ? PostgresPlacesDatabase.accessExecutor : nil) {
                do {
                    var value: T?
                    // A connection closed a moment ago (by a watchdog, or by the server) can still be handed out, and a
                    // query written to it is never answered; nothing was sent on it, so another is asked for.
                    for _ in 0..<3 where value == nil {
                        value = try await client.withConnection { connection -> T? in
                            if connection.isClosed { return nil }
                            // Given up on while waiting for the connection: the body never runs.
                            guard access.start(on: connection, committing: kind.commitsAsItGoes) else { throw CancellationError() }
                            gauges.connectionWait.recordInterval(since: asked)
                            gauges.inUse.increment()
                            defer { gauges.inUse.decrement() }
                            let outcome: Result<T, any Error>
                            do {
                                outcome = .success(try await PostgresPlacesDatabase.run(kind, on: connection, access: access, logger: logger, body))
                            } catch {
                                outcome = .failure(error)
                            }
                            // The watchdog can no longer take the connection; one it took (and is closing) goes back to
                            // the pool only once closed, so that the pool never hands it out again.
                            if access.returning() || connection.isClosed { try? await connection.closeFuture.get() }
                            if case .success = outcome, kind.writes {
                                RequestWrites.current?.committed()
                                if ringing { self.commits.ring() }
                            }
                            return try outcome.get()
                        }
                    }
                    guard let value else { throw PostgresPlacesDatabase.unavailable("the database cannot be reached; try again", cause: .unreachable) }
                    access.finish(.success(value))
                } catch let error as PSQLError {
                    // Once the watchdog answered, the failure it caused (the connection it closed) is no news.
                    if !access.isAbandoned { access.finish(.failure(self.failure(error, committing: access.isCommitting))) }
                } catch {
                    access.finish(.failure(error))
                }
            }
            // The watchdog is a timer of the event loops, not a task: most accesses end long before it would fire, and
            // a task for each would be started, put to sleep and woken to be cancelled, every time.
            access.watchdog = PostgresPlacesDatabase.schedule(at: leaseDeadline) {
                let noConnection = PostgresPlacesDatabase.unavailable("the database gave no connection in time; try again", cause: .noConnection)
                if access.abandonIfWaiting(noConnection) {
                    work.cancel()
                    gauges.connectionWait.recordInterval(since: asked)
                    self.noConnection(waited: ContinuousClock.now - asked)
                    return
                }
                guard let deadline else { return }
                let timeOut: @Sendable () async -> Void = {
                    let timedOut = PostgresPlacesDatabase.unavailable("the database did not answer in time; try again", cause: .timeout)
                    if let (connection, committing) = access.abandonIfRunning(timedOut, orIfCommitting: PlacesError.outcomeUnknown) {
                        work.cancel()
                        let message: Logger.Message =
                            committing ? "the database did not answer a commit in time; its outcome is unknown" : "the database did not answer in time"
                        logger.warning(
                            message,
                            metadata: ["database": "\(self.location)", "waited": "\(ContinuousClock.now - asked)"]
                        )
                        try? await connection.close()
                    }
                }
                if deadline > leaseDeadline {
                    access.watchdog = PostgresPlacesDatabase.schedule(at: deadline, timeOut)
                } else {
                    await timeOut()
                }
            }
        }
    }

    /// The event loop that the pool's connections read and write on, and that a request's accesses run their work on: a
    /// thread of its own, shared by every database of the process. On the server's own event loops, busy with HTTP,
    /// each answer of the database waited for the loop's next turn, and then again for the task it resumed: about 7 ms
    /// for a statement of 0.1 ms under the mixed load (adds took 3× as long as on SQLite). Here an access waits for the
    /// server's loops once, when its caller resumes. Longer accesses (the index's full load, seeds, copies) run their
    /// work on the global executor as before: decoding a million rows must not hold every request's database access.
    static let accessLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// Runs the accesses' work on `accessLoop` (`Task(executorPreference:)`).
    static let accessExecutor = EventLoopExecutor(accessLoop.next())

    /// Runs `body` in a task of its own at `instant`, unless cancelled first (`Scheduled.cancel()`): a timer of the access
    /// loop, where the access that cancels it ends.
    private static func schedule(at instant: ContinuousClock.Instant, _ body: @escaping @Sendable () async -> Void) -> Scheduled<Void> {
        let remaining = ContinuousClock.now.duration(to: instant)
        let (seconds, attoseconds) = remaining.components
        let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        return accessLoop.next().scheduleTask(in: .nanoseconds(nanoseconds)) {
            Task { await body() }
        }
    }

    /// Runs the body on `connection` as `kind` says.
    private static func run<T: Sendable>(
        _ kind: AccessKind,
        on connection: PostgresConnection,
        access: Access<T>,
        logger: Logger,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        guard case .transaction(let begin, let writing) = kind else { return try await body(connection) }
        try await connection.query(begin, logger: logger)
        let value: T
        do {
            value = try await body(connection)
        } catch {
            // A connection the server cut is not returned to a usable state by ROLLBACK; the pool drops it.
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
        if writing { access.committing() }
        try await connection.query("COMMIT", logger: logger)
        return value
    }

    /// What the caller of an access is told of a database failure, the details logged for the operator.
    private func failure(_ error: PSQLError, committing: Bool) -> PlacesError {
        let failure = PostgresPlacesDatabase.mapped(error)
        // A server error answers the statement (a COMMIT refused is rolled back); any other failure while committing
        // lost the answer, so nobody knows whether the change was made.
        let lost = committing && error.serverInfo?[.sqlState] == nil
        let answer = lost ? PlacesError.outcomeUnknown : failure
        switch answer.code {
        case .conflict: break
        case .internalError:
            logger.error("database failure", metadata: ["database": "\(location)", "error": "\(PostgresPlacesDatabase.detail(error))"])
        default:
            logger.warning(
                lost ? "the database's answer to a change was lost; its outcome is unknown" : "the database cannot answer",
                metadata: ["database": "\(location)", "error": "\(PostgresPlacesDatabase.detail(error))", "cause": "\(answer.cause?.rawValue ?? "")"]
            )
        }
        return answer
    }

    /// The `PlacesError` a database failure means for a client, in words of our own: a broken rule of the schema is a
    /// conflict, a server that cannot answer now is unavailable (try again), anything else an internal error.
    static func mapped(_ error: PSQLError) -> PlacesError {
        guard let state = error.serverInfo?[.sqlState] else {
            return unavailable("the database cannot be reached; try again", cause: .unreachable)
        }
        switch state {
        case PostgresError.Code.uniqueViolation.raw, PostgresError.Code.foreignKeyViolation.raw, PostgresError.Code.checkViolation.raw:
            return PlacesError(.conflict, "the change conflicts with what is stored")
        case _ where unavailableStates.contains { state.hasPrefix($0) }:
            // Busy, restarting, out of room, read-only after a failover, or a password changed under us: try again.
            return unavailable("the database cannot answer now; try again", cause: .databaseRefused)
        default:
            return PlacesError(.internalError, "the database failed to answer; the failure was logged")
        }
    }

    /// A database failure in full, for the operator's log: the server's SQLSTATE and message, or the connection's
    /// own reason. Never the password.
    static func detail(_ error: PSQLError) -> String {
        if let state = error.serverInfo?[.sqlState] {
            return "\(state): \(error.serverInfo?[.message] ?? "")"
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    /// SQLSTATEs (and classes, by their first two characters) that mean the database cannot answer now rather than
    /// that the request is wrong: connection exceptions (08), invalid authorization (28), a missing database (3D000),
    /// a read-only transaction (25006, a standby after a failover), transaction rollbacks such as serialization
    /// failures and deadlocks (40), insufficient resources (53), operator intervention such as a shutdown or a
    /// cancelled statement (57), a lock not available (55P03).
    static let unavailableStates = ["08", "28", "3D000", "25006", "40", "53", "57", "55P03"]

    /// `unavailable`, to be tried again in a second (the answer's `Retry-After`), and why.
    static func unavailable(_ message: String, cause: PlacesError.Cause) -> PlacesError {
        var error = PlacesError(.unavailable, message)
        error.retryAfterSeconds = 1
        error.cause = cause
        return error
    }

}

/// Runs the jobs of the tasks that prefer it on one event loop.
final class EventLoopExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

extension PostgresPlacesDatabase.Bound {
    /// True for a request's bound.
    var isRequest: Bool {
        if case .request = self { return true }
        return false
    }
}

extension PostgresPlacesDatabase.AccessKind {
    /// True when the body's statements commit as they run: a lost answer then leaves the outcome unknown.
    var commitsAsItGoes: Bool {
        if case .statements(writing: true) = self { return true }
        return false
    }

    /// True when the access may change something.
    var writes: Bool {
        switch self {
        case .statements(let writing), .transaction(_, let writing): writing
        }
    }
}

/// One access to the database, seen by its work and its watchdog: which of them answers the caller, exactly once.
private final class Access<T: Sendable>: Sendable {
    private enum Phase {
        /// Waiting for a connection.
        case waiting
        /// The body runs on this connection.
        case running(PostgresConnection)
        /// The body is done and its connection on its way back to the pool: the watchdog leaves it alone.
        case returning
        /// The caller has its answer.
        case answered
    }

    private struct State {
        var phase = Phase.waiting
        var continuation: CheckedContinuation<T, any Error>?
        var watchdog: Scheduled<Void>?
        /// True once a change may have been committed: a lost answer then leaves the outcome unknown.
        var committing = false
    }

    private let state: Mutex<State>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        state = Mutex(State(continuation: continuation))
    }

    /// The timer that gives up on the access; cancelled once the caller is answered.
    var watchdog: Scheduled<Void>? {
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
    func start(on connection: PostgresConnection, committing: Bool) -> Bool {
        state.withLock { state in
            guard case .waiting = state.phase else { return false }
            state.phase = .running(connection)
            state.committing = committing
            return true
        }
    }

    /// From now on a lost answer leaves the outcome unknown (COMMIT is being sent).
    func committing() {
        state.withLock { $0.committing = true }
    }

    /// True once a change may have been committed.
    var isCommitting: Bool { state.withLock { $0.committing } }

    /// True once the caller was answered while the body still ran (the watchdog gave up on it).
    var isAbandoned: Bool {
        state.withLock { state in
            if case .answered = state.phase { return true }
            return false
        }
    }

    /// The body is done: from now on the watchdog leaves the connection alone. True when the watchdog took it first
    /// (it is closing it).
    func returning() -> Bool {
        state.withLock { state in
            guard case .running = state.phase else { return true }
            state.phase = .returning
            return false
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

    /// Answers the caller if the body is still running, with `error`, or `committingError` once a change may have been
    /// committed; hands back its connection to close, and whether it was committing.
    func abandonIfRunning(_ error: PlacesError, orIfCommitting committingError: PlacesError) -> (PostgresConnection, Bool)? {
        let taken = state.withLock { state -> (CheckedContinuation<T, any Error>, PostgresConnection, Bool)? in
            guard case .running(let connection) = state.phase, let continuation = state.continuation else { return nil }
            state.phase = .answered
            state.continuation = nil
            return (continuation, connection, state.committing)
        }
        guard let (continuation, connection, committing) = taken else { return nil }
        continuation.resume(throwing: committing ? committingError : error)
        return (connection, committing)
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
            throw diagnosis(of: error, at: server)
        }
    }
}
