import EventLoopExecution
import Foundation
import NIOCore
import NIOPosix
import PlacesCore
import PostgresNIO
import Synchronization

// The watchdog of a PostgreSQL access: the loop its work and its timers run on, and the state its work and its timer
// share (`Access`), so that exactly one of them answers the caller.

extension PostgresPlacesDatabase {
    /// The event loop that the pool's connections read and write on, and that a request's accesses run their work on: a
    /// thread of its own, shared by every database of the process. On the server's own event loops, busy with HTTP,
    /// each answer of the database waited for the loop's next turn, and then again for the task it resumed: about 7 ms
    /// for a statement of 0.1 ms under the mixed load (adds took 3× as long as on SQLite). Here an access waits for the
    /// server's loops once, when its caller resumes. Longer accesses (the index's full load, seeds, copies) run their
    /// work on the global executor as before: decoding a million rows must not hold every request's database access.
    static let accessLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// Runs the accesses' work on `accessLoop` (`Task(executorPreference:)`).
    static let accessExecutor = EventLoopTaskExecutor(accessLoop.next())

    /// Runs `body` in a task of its own at `instant`, unless cancelled first (`Scheduled.cancel()`): a timer of the access
    /// loop, where the access that cancels it ends.
    static func schedule(at instant: ContinuousClock.Instant, _ body: @escaping @Sendable () async -> Void) -> Scheduled<Void> {
        let remaining = ContinuousClock.now.duration(to: instant)
        let (seconds, attoseconds) = remaining.components
        let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        return accessLoop.next().scheduleTask(in: .nanoseconds(nanoseconds)) {
            Task { await body() }
        }
    }
}

/// One access to the database, seen by its work and its watchdog: which of them answers the caller (`answer`, exactly
/// once), and whether the watchdog may still take the connection away.
final class Access<T: Sendable>: Sendable {
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
        var watchdog: Scheduled<Void>?
        /// True once a change may have been committed: a lost answer then leaves the outcome unknown.
        var committing = false
    }

    private let state = Mutex(State())
    /// The caller's answer: the body's outcome, or the watchdog's refusal, whichever comes first.
    let answer = OneAnswer<T>()

    /// The timer that gives up on the access; cancelled once the caller is answered.
    var watchdog: Scheduled<Void>? {
        get { state.withLock { $0.watchdog } }
        set {
            state.withLock { $0.watchdog = newValue }
            answer.whenAnswered { newValue?.cancel() }
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
    var isAbandoned: Bool { answer.isAnswered }

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
        state.withLock { $0.phase = .answered }
        answer.give(result)
    }

    /// Answers the caller with `error` if the access is still waiting for a connection; true when it did.
    func abandonIfWaiting(_ error: PlacesError) -> Bool {
        let waiting = state.withLock { state in
            guard case .waiting = state.phase else { return false }
            state.phase = .answered
            return true
        }
        return waiting && answer.give(.failure(error))
    }

    /// Answers the caller if the body is still running, with `error`, or `committingError` once a change may have been
    /// committed; hands back its connection to close, and whether it was committing.
    func abandonIfRunning(_ error: PlacesError, orIfCommitting committingError: PlacesError) -> (PostgresConnection, Bool)? {
        let taken = state.withLock { state -> (PostgresConnection, Bool)? in
            guard case .running(let connection) = state.phase else { return nil }
            state.phase = .answered
            return (connection, state.committing)
        }
        guard let (connection, committing) = taken, answer.give(.failure(committing ? committingError : error)) else { return nil }
        return (connection, committing)
    }
}
