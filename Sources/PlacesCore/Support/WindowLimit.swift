import Foundation

/// A bound on how many things one subject (a person's messages, a group's admin alerts) may do within a sliding window
/// of time. The repository counts in the transaction that stores the next one (on PostgreSQL one subject's writes are
/// counted one at a time), so the bound is exact across instances; this type knows the window and how a refusal reads.
public struct RateWindow: Sendable, Hashable {
    /// How many are allowed within the window.
    public var allowed: Int
    /// How long the window is, in seconds.
    public var length: TimeInterval

    /// `allowed` things per `length` seconds.
    public init(allowed: Int, per length: TimeInterval) {
        self.allowed = allowed
        self.length = length
    }

    /// What the repository counts at `now`: things done at or after the window's start.
    public func limit(at now: Date) -> WindowLimit {
        WindowLimit(allowed: allowed, since: now.addingTimeInterval(-length))
    }

    /// The seconds until one more fits, when the oldest of the things that reach the bound was done at
    /// `oldestCounted`: at least 1.
    public func secondsToWait(now: Date, oldestCounted: Date) -> Int {
        max(1, Int((length - now.timeIntervalSince(oldestCounted)).rounded(.up)))
    }

    /// The 429 `too_many_attempts` refusal with `Retry-After`, its message made from the seconds to wait.
    public func refusal(now: Date, oldestCounted: Date, _ message: (Int) -> String) -> PlacesError {
        let seconds = secondsToWait(now: now, oldestCounted: oldestCounted)
        var error = PlacesError(.tooManyAttempts, message(seconds))
        error.retryAfterSeconds = seconds
        return error
    }
}

/// How many things a subject may have done since a moment: what a repository counts before it stores one more.
@PublicInit
public struct WindowLimit: Sendable, Hashable {
    /// How many are allowed.
    public var allowed: Int
    /// Things done at or after this moment count.
    public var since: Date
}
