import Foundation

/// Slows password guessing and sign-up floods without letting a stranger lock an owner out from everywhere.
///
/// A login attempt is counted *before* its password is checked (`begin`), so a burst sent in parallel is bounded
/// like one sent in turn: every attempt takes a slot, and only a successful one gives its slot back. Attempts are
/// counted in a sliding window twice: per (account, client address), and per client address alone with a higher
/// bound. The account is the account itself when the login names one (its username, e-mail and phone share one
/// count), or else the identifier as typed, so unknown accounts are throttled exactly like known ones. An account's
/// failures from one address never block it from another. Registrations are counted per client address.
///
/// The counts live in the database (`ThrottleRepository`), so every instance over it counts the same attempts: ten
/// wrong passwords spread over three instances throttle like ten sent to one. The clock is the caller's (`now`).
public struct LoginThrottle: Sendable {
    /// The bounds and the windows; by default 10 per account and address, 100 per address, in 15 minutes; 20
    /// registrations per address in an hour.
    @PublicInit
    public struct Policy: Sendable {
        /// Failed logins allowed for one account from one address within the window.
        public var perAccountAndAddress: Int = 10
        /// Failed logins allowed from one address, over all accounts, within the window.
        public var perAddress: Int = 100
        /// The sliding window of logins.
        public var window: TimeInterval = 15 * 60
        /// Registrations allowed from one address within `registrationWindow`.
        public var registrationsPerAddress: Int = 20
        /// The sliding window of registrations.
        public var registrationWindow: TimeInterval = 60 * 60
    }

    /// A login attempt that has been counted; `succeeded` gives its slot back, a failure leaves it counted.
    public struct Attempt: Sendable {
        /// The attempt's own id, under which it was counted.
        let id: String
        /// The (account, address) key of a login, which a success clears; nil for a registration.
        let pair: String?
    }

    /// The policy in force.
    public let policy: Policy
    private let repository: any ThrottleRepository

    /// Makes a throttle with `policy` that counts in `repository`.
    public init(repository: any ThrottleRepository, policy: Policy = Policy()) {
        self.repository = repository
        self.policy = policy
    }

    /// Counts a login attempt at `now`, or throws 429 `too_many_attempts` with the seconds to wait when either bound
    /// is already reached. The check and the count are one step, so parallel attempts cannot all pass the check.
    public func begin(account: String, address: String, now: Date) async throws -> Attempt {
        let pair = pairKey(account, address)
        let limits = [
            ThrottleLimit(key: pair, bound: policy.perAccountAndAddress, window: policy.window),
            ThrottleLimit(key: addressKey(address), bound: policy.perAddress, window: policy.window),
        ]
        let attempt = Attempt(id: RandomID.make("attempt-"), pair: pair)
        if case .refused(let until) = try await repository.count(attempt.id, at: now, under: limits) {
            throw tooMany("too many failed logins", delay: until.timeIntervalSince(now))
        }
        return attempt
    }

    /// The login attempt's password was right: it was no failure, and the account's count from that address starts
    /// over.
    public func succeeded(_ attempt: Attempt) async throws {
        try await repository.withdraw(attempt.id, clearing: attempt.pair.map { [$0] } ?? [])
    }

    /// The attempt was never checked (the server refused it first): it gives its slot back and counts for nothing.
    public func withdraw(_ attempt: Attempt) async throws {
        try await repository.withdraw(attempt.id, clearing: [])
    }

    /// Counts a registration from `address` at `now`, or throws 429 `too_many_attempts` when the address has
    /// registered as many accounts as the policy allows within its window.
    public func beginRegistration(address: String, now: Date) async throws -> Attempt {
        let limit = ThrottleLimit(key: "register\u{1F}\(address)", bound: policy.registrationsPerAddress, window: policy.registrationWindow)
        let attempt = Attempt(id: RandomID.make("attempt-"), pair: nil)
        if case .refused(let until) = try await repository.count(attempt.id, at: now, under: [limit]) {
            throw tooMany("too many accounts registered from this address", delay: until.timeIntervalSince(now))
        }
        return attempt
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
