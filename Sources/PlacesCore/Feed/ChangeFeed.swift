import Foundation
import Synchronization

/// The change feed as the services see it: who follows it and when they read, how long it keeps its rows, and how far
/// its horizon is held back.
///
/// Its subscribers (the index's sync, the live streams' reader) each read from a position of their own; the feed
/// wakes them (a commit of this process, another instance's announcement), polls them, and has them read again soon
/// while changes wait above the horizon, with one mechanism for all (`follow`).
public struct ChangeFeed: Sendable {
    /// How long the change feed keeps its rows: a reader further behind than this loads everything instead.
    public static let feedRetention: TimeInterval = 24 * 60 * 60

    let repository: any ChangeFeedRepository
    let clock: @Sendable () -> Date
    fileprivate let waking = Waking()

    /// The feed over `repository`, pruned by `clock`'s time.
    public init(repository: any ChangeFeedRepository, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.repository = repository
        self.clock = clock
    }

    // MARK: Subscribers

    /// Who to wake when another instance announces a commit, and whether its announcements are being heard. Shared by
    /// the feed's copies.
    fileprivate final class Waking: Sendable {
        let announced = Doorbells()
        let listening = Mutex(false)
    }

    /// Another instance announced a commit: every subscriber reads at once.
    public func wake() { waking.announced.ring() }

    /// Tells the feed whether every other instance's commits now wake it (the engine's notifications are being
    /// received): its subscribers then poll at their `listening` rhythm. Starting to listen wakes them, since what was
    /// announced before was lost.
    public func listening(_ listening: Bool) {
        waking.listening.withLock { $0 = listening }
        if listening { waking.announced.ring() }
    }

    /// Has each subscriber read the feed until cancelled (`subscribe(_:)`, then `Following.run`).
    public func follow(_ subscribers: [any FeedSubscriber], report: @escaping @Sendable (String, any Error) -> Void = { _, _ in }) async {
        await subscribe(subscribers).run(report: report)
    }

    /// Subscribes `subscribers` at once: from now on the wake-ups meant for them are kept for their loops, which
    /// `Following.run` runs.
    public func subscribe(_ subscribers: [any FeedSubscriber]) -> Following {
        let followed = subscribers.map { subscriber in
            let doorbell = Doorbell()
            waking.announced.add(doorbell)
            if subscriber.wakesOnOwnCommits { repository.commits.add(doorbell) }
            return Following.Followed(subscriber: subscriber, doorbell: doorbell)
        }
        return Following(feed: self, followed: followed)
    }

    /// Subscribers of the feed, each with the doorbell that wakes it.
    public struct Following: Sendable {
        struct Followed: Sendable {
            let subscriber: any FeedSubscriber
            let doorbell: Doorbell
        }

        let feed: ChangeFeed
        let followed: [Followed]

        /// Has each subscriber read the feed until cancelled, each in a loop of its own (a whole reload of the index
        /// does not hold the streams up): when woken, at its poll, and, while changes wait above the horizon, again a
        /// few milliseconds later (`FeedRetry`). A failed read is told to `report` and tried again at the next poll.
        /// Unsubscribes them when it ends.
        public func run(report: @escaping @Sendable (String, any Error) -> Void = { _, _ in }) async {
            await withTaskGroup(of: Void.self) { group in
                for one in followed {
                    group.addTask { await feed.follow(one.subscriber, ringing: one.doorbell, report: report) }
                }
                await group.waitForAll()
            }
            for one in followed {
                feed.waking.announced.remove(one.doorbell)
                feed.repository.commits.remove(one.doorbell)
            }
        }
    }

    private func follow(
        _ subscriber: any FeedSubscriber,
        ringing doorbell: Doorbell,
        report: @escaping @Sendable (String, any Error) -> Void
    ) async {
        var retry = FeedRetry(poll: subscriber.polls.alone)
        var retrying: Task<Void, Never>?
        defer { retrying?.cancel() }
        while !Task.isCancelled {
            let listening = waking.listening.withLock { $0 }
            await doorbell.wait(upTo: listening ? subscriber.polls.listening : subscriber.polls.alone)
            if Task.isCancelled { return }
            do {
                guard let read = try await subscriber.readFeed() else { continue }
                if let wait = retry.after(pending: read.pending, movedOn: read.movedOn) {
                    retrying?.cancel()
                    retrying = Task {
                        try? await Task.sleep(for: wait)
                        if !Task.isCancelled { doorbell.ring() }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                report("\(subscriber.name) could not read the change feed; retrying", error)
                try? await Task.sleep(for: subscriber.polls.alone)
            }
        }
    }

    // MARK: Rows

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
