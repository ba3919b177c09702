import Foundation

/// One sliding-window bound an attempt is counted under: no more than `bound` attempts under `key` within `window`.
@PublicInit
public struct ThrottleLimit: Sendable, Hashable {
    /// What is counted: an (account, address) pair, an address, an address's registrations.
    public var key: String
    /// Attempts allowed under the key within the window.
    public var bound: Int
    /// How long an attempt counts, in seconds.
    public var window: TimeInterval
}

/// What counting an attempt came to.
public enum ThrottleVerdict: Sendable, Equatable {
    /// The attempt was counted under every limit.
    case counted
    /// A limit was already reached: nothing was counted, and the attempt is allowed again from `until` (the latest of
    /// the reached limits' times).
    case refused(until: Date)
}

/// Attempts counted in sliding windows, stored in the database so that every instance over it counts the same ones:
/// the login throttle's memory.
///
/// Counting is one atomic step on every engine: of attempts counted at once under one key (from any number of tasks
/// and instances), no more than the key's bound are let through within its window.
public protocol ThrottleRepository: Sendable {
    /// Counts attempt `attempt` (an id unique to it) at `now` under every limit when none of them is reached yet;
    /// otherwise counts it under none. A limit is reached when `bound` attempts under its key are younger than its
    /// window; it lets attempts in again once the oldest of the newest `bound` of them is `window` old. Attempts that
    /// have aged out of their window are deleted as it goes.
    func count(_ attempt: String, at now: Date, under limits: [ThrottleLimit]) async throws -> ThrottleVerdict
    /// Uncounts attempt `attempt` under every key it was counted under, and forgets every attempt counted under
    /// `keys`, in one transaction.
    func withdraw(_ attempt: String, clearing keys: [String]) async throws
}
