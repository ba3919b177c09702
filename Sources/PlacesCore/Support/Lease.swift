import Foundation

/// The right of one instance to run a task that must run on one instance at a time (the decision deadline round),
/// kept in the database: taken when free or expired, renewed by its holder every time it runs, and taken over by
/// another instance once its holder dies or loses the database: at its first round after `duration` has passed since
/// the holder's last renewal.
///
/// The instances' clocks are compared through the stored expiry: they should agree to well within `duration`.
public struct Lease: Sendable {
    /// How long a lease runs unless renewed: 10 seconds, two rounds of a task run every 5. An instance that dies is
    /// then replaced within 15 seconds: its lease runs out within 10, and another instance's next round comes within 5.
    public static let defaultDuration: TimeInterval = 10

    /// What the lease is for.
    public let name: String
    /// Who takes it: this instance, a random id unless given.
    public let holder: String
    /// How long it runs from each take or renewal.
    public let duration: TimeInterval
    private let repository: any LeaseRepository
    private let clock: @Sendable () -> Date

    /// The lease `name` in `repository`, held as `holder` for `duration` at a time by the clock `clock`.
    public init(
        _ name: String,
        repository: any LeaseRepository,
        holder: String = RandomID.make("instance-"),
        duration: TimeInterval = Lease.defaultDuration,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.name = name
        self.holder = holder
        self.duration = duration
        self.repository = repository
        self.clock = clock
    }

    /// Takes the lease when it is free or expired, or renews it when this instance holds it; false when another
    /// instance holds it (then the task must not run this round).
    public func acquire() async throws -> Bool {
        let now = clock()
        return try await repository.acquire(name, holder: holder, now: now, until: now.addingTimeInterval(duration))
    }

    /// Gives the lease up (at shutdown), so another instance takes over at once instead of after it expires.
    public func release() async throws {
        try await repository.release(name, holder: holder)
    }
}
