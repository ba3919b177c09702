import Synchronization

/// Runs `body` in a task of its own and answers with its value, or nil when it has not finished within `limit` (the
/// task is then cancelled, and not waited for: a connection to a server that stopped may ignore cancellation).
public func withTimeLimit<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T? {
    let answer = OneAnswer<T?>()
    return try await withCheckedThrowingContinuation { continuation in
        answer.wait(continuation)
        let work = Task {
            do { answer.give(.success(try await body())) } catch { answer.give(.failure(error)) }
        }
        Task {
            try? await Task.sleep(for: limit)
            if answer.give(.success(nil)) { work.cancel() }
        }
    }
}

/// A continuation resumed once, by whichever of several tasks answers first.
private final class OneAnswer<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T, any Error>?>(nil)

    func wait(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation.withLock { $0 = continuation }
    }

    /// Resumes the waiter with `result` unless another answered first; true when this one did.
    @discardableResult
    func give(_ result: Result<T, any Error>) -> Bool {
        guard let waiting = continuation.withLock({ $0.take() }) else { return false }
        waiting.resume(with: result)
        return true
    }
}
