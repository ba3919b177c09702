import Synchronization

/// Work on one key (a decision's id) that must not overlap in this process: callers for the same key wait their turn,
/// first come first served; other keys run freely. It is for efficiency, never for correctness across processes: a
/// change saved by optimistic concurrency stays correct without it, but two ballots of one decision read at once
/// would only make one of them read and decide again.
final class KeyedLock: Sendable {
    /// Keys held, each with the callers waiting for it.
    private let held = Mutex<[String: [CheckedContinuation<Void, Never>]]>([:])

    /// Runs `body` holding `key`.
    func withLock<T>(_ key: String, _ body: () async throws -> T) async rethrows -> T {
        await acquire(key)
        defer { release(key) }
        return try await body()
    }

    private func acquire(_ key: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let free = held.withLock { held in
                guard held[key] != nil else {
                    held[key] = []
                    return true
                }
                held[key]?.append(continuation)
                return false
            }
            if free { continuation.resume() }
        }
    }

    private func release(_ key: String) {
        let next = held.withLock { held -> CheckedContinuation<Void, Never>? in
            guard var waiting = held[key], !waiting.isEmpty else {
                held[key] = nil
                return nil
            }
            let first = waiting.removeFirst()
            held[key] = waiting
            return first
        }
        next?.resume()
    }
}
