import Foundation
import Synchronization

/// Slows password guessing and sign-up floods without letting a stranger lock an owner out from everywhere.
///
/// A login attempt is counted *before* its password is checked (`begin`), so a burst sent in parallel is bounded
/// like one sent in turn: every attempt takes a slot, and only a successful one gives its slot back. Attempts are
/// counted in a sliding window twice: per (account, client address), and per client address alone with a higher
/// bound. The account is the account itself when the login names one (its username, e-mail and phone share one
/// count), or else the identifier as typed, so unknown accounts are throttled exactly like known ones. An account's
/// failures from one address never block it from another. Registrations are counted per client address.
public final class LoginThrottle: Sendable {
    /// The bounds and the windows.
    public struct Policy: Sendable {
        /// Failed logins allowed for one account from one address within the window.
        public var perAccountAndAddress: Int
        /// Failed logins allowed from one address, over all accounts, within the window.
        public var perAddress: Int
        /// The sliding window of logins.
        public var window: TimeInterval
        /// Registrations allowed from one address within `registrationWindow`.
        public var registrationsPerAddress: Int
        /// The sliding window of registrations.
        public var registrationWindow: TimeInterval

        /// 10 per account and address, 100 per address, in 15 minutes; 20 registrations per address in an hour.
        public init(
            perAccountAndAddress: Int = 10,
            perAddress: Int = 100,
            window: TimeInterval = 15 * 60,
            registrationsPerAddress: Int = 20,
            registrationWindow: TimeInterval = 60 * 60
        ) {
            self.perAccountAndAddress = perAccountAndAddress
            self.perAddress = perAddress
            self.window = window
            self.registrationsPerAddress = registrationsPerAddress
            self.registrationWindow = registrationWindow
        }
    }

    /// A login attempt that has been counted; `succeeded` gives its slot back, a failure leaves it counted.
    public struct Attempt: Sendable {
        /// The keys it was counted under; the first is the (account, address) pair of a login.
        let keys: [String]
        let at: Date
    }

    private struct State {
        var attempts: [String: [Date]] = [:]
    }

    /// The policy in force.
    public let policy: Policy
    private let state = Mutex(State())

    /// Makes a throttle with `policy`.
    public init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// Counts a login attempt at `now`, or throws 429 `too_many_attempts` with the seconds to wait when either bound
    /// is already reached. The check and the count are one step, so parallel attempts cannot all pass the check.
    public func begin(account: String, address: String, now: Date) throws(PlacesError) -> Attempt {
        let pair = pairKey(account, address)
        let single = addressKey(address)
        let delay = state.withLock { state -> TimeInterval? in
            let waits = [
                wait(state.attempts[pair], bound: policy.perAccountAndAddress, window: policy.window, now: now),
                wait(state.attempts[single], bound: policy.perAddress, window: policy.window, now: now),
            ]
            if let delay = waits.compactMap({ $0 }).max() { return delay }
            append(now, to: pair, window: policy.window, in: &state)
            append(now, to: single, window: policy.window, in: &state)
            return nil
        }
        if let delay { throw tooMany("too many failed logins", delay: delay) }
        return Attempt(keys: [pair, single], at: now)
    }

    /// The login attempt's password was right: it was no failure, and the account's count from that address starts
    /// over.
    public func succeeded(_ attempt: Attempt) {
        withdraw(attempt)
        guard let pair = attempt.keys.first else { return }
        _ = state.withLock { state in state.attempts.removeValue(forKey: pair) }
    }

    /// The attempt was never checked (the server refused it first): it gives its slot back and counts for nothing.
    public func withdraw(_ attempt: Attempt) {
        state.withLock { state in
            for key in attempt.keys {
                guard var times = state.attempts[key], let index = times.lastIndex(of: attempt.at) else { continue }
                times.remove(at: index)
                state.attempts[key] = times.isEmpty ? nil : times
            }
        }
    }

    /// Counts a registration from `address` at `now`, or throws 429 `too_many_attempts` when the address has
    /// registered as many accounts as the policy allows within its window.
    public func beginRegistration(address: String, now: Date) throws(PlacesError) -> Attempt {
        let key = "register\u{1F}\(address)"
        let delay = state.withLock { state -> TimeInterval? in
            if let delay = wait(state.attempts[key], bound: policy.registrationsPerAddress, window: policy.registrationWindow, now: now) {
                return delay
            }
            append(now, to: key, window: policy.registrationWindow, in: &state)
            return nil
        }
        if let delay { throw tooMany("too many accounts registered from this address", delay: delay) }
        return Attempt(keys: [key], at: now)
    }

    private func append(_ now: Date, to key: String, window: TimeInterval, in state: inout State) {
        var times = (state.attempts[key] ?? []).filter { now.timeIntervalSince($0) < window }
        times.append(now)
        // Only the newest `bound` attempts can ever matter.
        let keep = max(policy.perAddress, policy.registrationsPerAddress)
        if times.count > keep { times.removeFirst(times.count - keep) }
        state.attempts[key] = times
        // Forget whole keys whose attempts have aged out, so the table stays small under a long attack.
        if state.attempts.count > 50_000 {
            let longest = max(policy.window, policy.registrationWindow)
            state.attempts = state.attempts.filter { _, times in
                times.last.map { now.timeIntervalSince($0) < longest } ?? false
            }
        }
    }

    private func wait(_ times: [Date]?, bound: Int, window: TimeInterval, now: Date) -> TimeInterval? {
        guard let times else { return nil }
        let recent = times.filter { now.timeIntervalSince($0) < window }
        guard recent.count >= bound else { return nil }
        // Allowed again once the oldest attempt that keeps the count at the bound leaves the window.
        let blocking = recent[recent.count - bound]
        return window - now.timeIntervalSince(blocking)
    }

    private func tooMany(_ what: String, delay: TimeInterval) -> PlacesError {
        let seconds = max(1, Int(delay.rounded(.up)))
        var error = PlacesError(.tooManyAttempts, "\(what); try again in \(seconds) seconds")
        error.retryAfterSeconds = seconds
        return error
    }

    private func pairKey(_ account: String, _ address: String) -> String { "pair\u{1F}\(account)\u{1F}\(address)" }
    private func addressKey(_ address: String) -> String { "address\u{1F}\(address)" }
}
