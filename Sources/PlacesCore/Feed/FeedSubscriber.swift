/// A reader that follows the change feed from a position of its own: the index's sync (`IndexSubscriber`) and the
/// live streams' reader (`LiveFeed`). The change feed decides when each reads (`ChangeFeed.follow`): when a commit of
/// this process or another instance's announcement rings, at its poll, and again soon while changes wait above the
/// feed's horizon (`FeedRetry`).
public protocol FeedSubscriber: Sendable {
    /// What it is, for the log.
    var name: String { get }
    /// How often it reads without a wake-up.
    var polls: FeedPolls { get }
    /// True when this process's own commits must wake it (the streams carry them); false when a write of this process
    /// brings it up to date itself (the index: a write waits for its own sync).
    var wakesOnOwnCommits: Bool { get }
    /// Reads what the feed holds after its position and applies it; nil when it follows nothing now (no stream open).
    func readFeed() async throws -> FeedRead?
}

/// What one read of a subscriber found.
public struct FeedRead: Sendable, Equatable {
    /// True when the read moved the subscriber's position on.
    public var movedOn: Bool
    /// True when changes were committed above the feed's horizon (behind a transaction still open): it reads again soon.
    public var pending: Bool

    public init(movedOn: Bool, pending: Bool) {
        self.movedOn = movedOn
        self.pending = pending
    }
}

/// How often a subscriber reads without a wake-up.
public struct FeedPolls: Sendable, Equatable {
    /// While no announcement from the other instances is heard (SQLite, or PostgreSQL's notifications lost).
    public var alone: Duration
    /// While every other instance's commits wake it (`ChangeFeed.listening(_:)`): only a writer outside the service
    /// (psql) goes unannounced then.
    public var listening: Duration

    public init(alone: Duration, listening: Duration) {
        self.alone = alone
        self.listening = listening
    }
}
