import Synchronization

/// Runs `body` in a task of its own and answers with its value, or nil when it has not finished within `limit` (the
/// task is then cancelled, and not waited for: a connection to a server that stopped may ignore cancellation). A value
/// that comes too late is handed to `late` (a connection to close, say).
public func withTimeLimit<T: Sendable>(
    _ limit: Duration,
    _ body: @escaping @Sendable () async throws -> T,
    late: @escaping @Sendable (T) async -> Void = { _ in }
) async throws -> T? {
    let answer = OneAnswer<T?>()
    return try await withCheckedThrowingContinuation { continuation in
        answer.wait(continuation)
        let work = Task {
            do {
                let value = try await body()
                if !answer.give(.success(value)) { await late(value) }
            } catch {
                answer.give(.failure(error))
            }
        }
        answer.timer = Task {
            try? await Task.sleep(for: limit)
            if answer.give(.success(nil)) { work.cancel() }
        }
    }
}

/// A continuation resumed once, by whichever of several tasks answers first; the timer is cancelled once answered.
private final class OneAnswer<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var timer: Task<Void, Never>?
        var answered = false
    }

    private let state = Mutex(State())

    func wait(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// The task that answers nil when the time is up; cancelled at once when the answer came first.
    var timer: Task<Void, Never>? {
        get { state.withLock { $0.timer } }
        set {
            let answered = state.withLock { state in
                state.timer = newValue
                return state.answered
            }
            if answered { newValue?.cancel() }
        }
    }

    /// Resumes the waiter with `result` unless another answered first; true when this one did.
    @discardableResult
    func give(_ result: Result<T, any Error>) -> Bool {
        let (waiting, timer) = state.withLock { state -> (CheckedContinuation<T, any Error>?, Task<Void, Never>?) in
            guard !state.answered else { return (nil, nil) }
            state.answered = true
            defer { state.continuation = nil }
            return (state.continuation, state.timer)
        }
        guard let waiting else { return false }
        timer?.cancel()
        waiting.resume(with: result)
        return true
    }
}
