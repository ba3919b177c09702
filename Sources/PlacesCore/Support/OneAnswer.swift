import Synchronization

/// One answer to a task that waits, from whichever of several parties gives it first: the work it waits for, a timer
/// that gives up on it, a bell, the waiting task's own cancellation. The answers that come later are dropped (`give`
/// says whether its answer was the one), and what was tied to the wait (a timer) is cancelled once it is answered.
///
/// The one primitive behind every "this, or a time-out" of the service: `withTimeLimit`, the `Doorbell`'s wait, the
/// live feed's `StreamStop` and a PostgreSQL access's watchdog. An answer given before anyone waits is kept for the
/// wait; the wait is meant for one task.
public final class OneAnswer<T: Sendable>: Sendable {
    private struct State {
        var waiter: CheckedContinuation<T, any Error>?
        /// The answer, once given (kept until the waiter takes it).
        var answer: Result<T, any Error>?
        var answered = false
        /// Run once the answer is given.
        var whenAnswered: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// True once an answer was given.
    public var isAnswered: Bool { state.withLock { $0.answered } }

    /// Answers the wait with `result`, unless it was answered already; true when this was the answer.
    @discardableResult
    public func give(_ result: Result<T, any Error>) -> Bool {
        let taken = state.withLock { state -> (CheckedContinuation<T, any Error>?, [@Sendable () -> Void])? in
            guard !state.answered else { return nil }
            state.answered = true
            defer {
                state.waiter = nil
                state.whenAnswered = []
            }
            if state.waiter == nil { state.answer = result }
            return (state.waiter, state.whenAnswered)
        }
        guard let (waiter, whenAnswered) = taken else { return false }
        waiter?.resume(with: result)
        for body in whenAnswered { body() }
        return true
    }

    /// Answers the wait with `value`, unless it was answered already; true when this was the answer.
    @discardableResult
    public func give(_ value: T) -> Bool { give(.success(value)) }

    /// Runs `body` once the wait is answered, or at once when it is already: to cancel what was tied to the wait.
    public func whenAnswered(_ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { state in
            if state.answered { return true }
            state.whenAnswered.append(body)
            return false
        }
        if now { body() }
    }

    /// Gives `result` once `limit` has passed, unless answered first (the timer then stops at once).
    public func give(_ result: Result<T, any Error>, after limit: Duration) {
        let timer = Task {
            try? await Task.sleep(for: limit)
            if !Task.isCancelled { self.give(result) }
        }
        whenAnswered { timer.cancel() }
    }

    /// Waits for the answer and hands it back (its error thrown). `ifCancelled`: what the waiting task's cancellation
    /// answers (at once when it was cancelled before it waited); nil leaves the wait to the other parties.
    public func value(ifCancelled: Result<T, any Error>? = nil) async throws -> T {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<T, any Error>? in
                    if let answer = state.answer {
                        state.answer = nil
                        return answer
                    }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            if let ifCancelled { give(ifCancelled) }
        }
    }
}

extension OneAnswer where T == Void {
    /// Answers the wait, unless it was answered already; true when this was the answer.
    @discardableResult
    public func give() -> Bool { give(.success(())) }
}
