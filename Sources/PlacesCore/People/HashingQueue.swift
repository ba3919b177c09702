import Foundation
import Synchronization

/// Bounds the password hashing a server does at once, so that a flood of logins or sign-ups cannot take every core
/// from the other routes, nor pile up work without end.
///
/// At most `concurrent` hashes run; up to `waiting` more wait their turn, first come first served; beyond that a
/// request is refused at once with 503 `unavailable` and `Retry-After`, which a client can honour.
public final class HashingQueue: Sendable {
    /// How many hashes run and wait.
    public struct Policy: Sendable {
        /// Hashes running at once.
        public var concurrent: Int
        /// Hashes waiting for a turn before further ones are refused.
        public var waiting: Int
        /// The `Retry-After` of a refusal, in seconds.
        public var retryAfterSeconds: Int

        /// One core fewer than the machine has (at least one) runs hashes, and four per running hash may wait.
        public init(
            concurrent: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1),
            waiting: Int? = nil,
            retryAfterSeconds: Int = 2
        ) {
            self.concurrent = max(1, concurrent)
            self.waiting = max(0, waiting ?? 4 * self.concurrent)
            self.retryAfterSeconds = retryAfterSeconds
        }
    }

    private struct State {
        var running = 0
        var queue: [CheckedContinuation<Bool, Never>] = []
    }

    /// The policy in force.
    public let policy: Policy
    private let state = Mutex(State())

    /// Makes a queue with `policy`.
    public init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// How many hashes run and how many wait, now.
    public var load: (running: Int, waiting: Int) {
        state.withLock { state in (state.running, state.queue.count) }
    }

    /// Runs `work` when a slot is free, after waiting in line if need be; 503 `unavailable` when the line is full.
    public func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        let admitted = await withCheckedContinuation { (turn: CheckedContinuation<Bool, Never>) in
            let answer = state.withLock { state -> Bool? in
                if state.running < policy.concurrent {
                    state.running += 1
                    return true
                }
                if state.queue.count < policy.waiting {
                    state.queue.append(turn)
                    return nil
                }
                return false
            }
            if let answer { turn.resume(returning: answer) }
        }
        guard admitted else {
            var error = PlacesError(.unavailable, "the server is busy checking passwords; try again in \(policy.retryAfterSeconds) seconds")
            error.cause = .hashingBusy
            error.retryAfterSeconds = policy.retryAfterSeconds
            throw error
        }
        defer { release() }
        return try await work()
    }

    /// Hands the slot to the next in line, or frees it.
    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if state.queue.isEmpty {
                state.running -= 1
                return nil
            }
            return state.queue.removeFirst()
        }
        next?.resume(returning: true)
    }
}

/// A password hasher whose every hash and check waits its turn in a `HashingQueue`.
struct QueuedPasswordHasher: PasswordHasher {
    let hasher: any PasswordHasher
    let queue: HashingQueue

    func hash(_ password: String) async throws -> String {
        try await queue.run { try await hasher.hash(password) }
    }

    func verify(_ password: String, against hash: String) async throws -> Bool {
        try await queue.run { try await hasher.verify(password, against: hash) }
    }
}
