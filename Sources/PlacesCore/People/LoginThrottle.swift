import Foundation
import Synchronization

/// Slows repeated failed logins without letting a stranger lock an owner out from everywhere.
///
/// Failures are counted in a sliding window twice: per (account, client address), and per client address alone
/// with a higher bound. An account's failures from one address never block it from another, and a successful
/// login clears that pair's count. The account is the identifier as typed (normalised), whether or not it exists,
/// so unknown accounts are throttled exactly like known ones.
public final class LoginThrottle: Sendable {
    /// The bounds and the window.
    public struct Policy: Sendable {
        /// Failures allowed for one account from one address within the window.
        public var perAccountAndAddress: Int
        /// Failures allowed from one address, over all accounts, within the window.
        public var perAddress: Int
        /// The sliding window.
        public var window: TimeInterval

        /// 10 per account and address, 100 per address, in 15 minutes.
        public init(perAccountAndAddress: Int = 10, perAddress: Int = 100, window: TimeInterval = 15 * 60) {
            self.perAccountAndAddress = perAccountAndAddress
            self.perAddress = perAddress
            self.window = window
        }
    }

    private struct State {
        var failures: [String: [Date]] = [:]
    }

    /// The policy in force.
    public let policy: Policy
    private let state = Mutex(State())

    /// Makes a throttle with `policy`.
    public init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// Throws 429 `too_many_attempts` with the seconds to wait when either bound is reached at `now`.
    public func check(account: String, address: String, now: Date) throws(PlacesError) {
        let delay = state.withLock { state -> TimeInterval? in
            let pair = self.wait(state.failures[pairKey(account, address)], bound: policy.perAccountAndAddress, now: now)
            let single = self.wait(state.failures[addressKey(address)], bound: policy.perAddress, now: now)
            return [pair, single].compactMap { $0 }.max()
        }
        guard let delay else { return }
        let seconds = max(1, Int(delay.rounded(.up)))
        var error = PlacesError(.tooManyAttempts, "too many failed logins; try again in \(seconds) seconds")
        error.retryAfterSeconds = seconds
        throw error
    }

    /// Counts a failed login at `now`.
    public func recordFailure(account: String, address: String, now: Date) {
        state.withLock { state in
            for key in [pairKey(account, address), addressKey(address)] {
                var times = (state.failures[key] ?? []).filter { now.timeIntervalSince($0) < policy.window }
                times.append(now)
                // Only the newest `bound` failures can ever matter.
                if times.count > policy.perAddress { times.removeFirst(times.count - policy.perAddress) }
                state.failures[key] = times
            }
            // Forget whole keys whose failures have aged out, so the table stays small under a long attack.
            if state.failures.count > 50_000 {
                state.failures = state.failures.filter { _, times in
                    times.last.map { now.timeIntervalSince($0) < policy.window } ?? false
                }
            }
        }
    }

    /// Clears the count of this account from this address after a successful login.
    public func recordSuccess(account: String, address: String) {
        _ = state.withLock { state in state.failures.removeValue(forKey: pairKey(account, address)) }
    }

    private func wait(_ times: [Date]?, bound: Int, now: Date) -> TimeInterval? {
        guard let times else { return nil }
        let recent = times.filter { now.timeIntervalSince($0) < policy.window }
        guard recent.count >= bound else { return nil }
        // Allowed again once the oldest failure that keeps the count at the bound leaves the window.
        let blocking = recent[recent.count - bound]
        return policy.window - now.timeIntervalSince(blocking)
    }

    private func pairKey(_ account: String, _ address: String) -> String { "pair\u{1F}\(account)\u{1F}\(address)" }
    private func addressKey(_ address: String) -> String { "address\u{1F}\(address)" }
}
