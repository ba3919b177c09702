import Foundation

/// The change feed as the services see it: how long it keeps its rows and how far its horizon is held back.
///
/// The feed's one home in Core, growing from here: pruning and the horizon's age today; the position, waking and the
/// reads that the index's sync and the live streams share are to follow.
public struct ChangeFeed: Sendable {
    /// How long the change feed keeps its rows: a reader further behind than this loads everything instead.
    public static let feedRetention: TimeInterval = 24 * 60 * 60

    let repository: any ChangeFeedRepository
    let clock: @Sendable () -> Date

    /// The feed over `repository`, pruned by `clock`'s time.
    public init(repository: any ChangeFeedRepository, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.repository = repository
        self.clock = clock
    }

    /// Deletes the change feed's rows older than `feedRetention`; answers how many.
    @discardableResult
    public func prune() async throws -> Int {
        try await repository.pruneFeed(writtenBefore: clock().addingTimeInterval(-ChangeFeed.feedRetention))
    }

    /// How long the oldest transaction holding the feed's horizon back has been open (every instance's feed waits for
    /// it), in seconds; zero when none does.
    public func horizonAge() async throws -> Double {
        try await repository.feedHorizonAge()
    }
}
