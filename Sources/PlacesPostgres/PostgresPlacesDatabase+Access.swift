import Foundation
import Logging
import PlacesCore
import PostgresNIO

// How the repositories reach the database: an access (a read, a change, a transaction, a snapshot) on a connection of
// the pool, bounded in time by its watchdog (`AccessWatchdog.swift`), its failures told in words of our own
// (`PostgresPlacesDatabase+Failures.swift`).

extension PostgresPlacesDatabase {
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
        let access = Access<T>()
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
        return try await access.answer.value()
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
