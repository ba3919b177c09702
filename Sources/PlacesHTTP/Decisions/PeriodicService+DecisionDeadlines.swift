import Logging
import PlacesCore
import Synchronization

extension PeriodicService {
    /// Passes decisions' deadlines while the server runs, whether or not anybody looks: every `interval` it counts,
    /// draws or expires what is due and sends the reminders an hour before (and settles whatever else is due in a
    /// decision: `DecisionService.settleDue`).
    ///
    /// Of several instances over one database, one at a time does it: each round first takes or renews `lease` (which
    /// outlasts a few rounds), and an instance that does not hold it skips the round. When the holder dies or loses the
    /// database, its lease runs out and another instance's next round takes it. Should two rounds ever overlap (a
    /// round that outlasts its lease), a decision still ends once: its save is refused when it changed since its read.
    /// At graceful shutdown the instance gives the lease up, so another instance's next round takes it at once rather
    /// than after it runs out.
    ///
    /// The holder also prunes the change feed of what is older than a day (`ChangeFeed.feedRetention`), at its first
    /// round and then every `pruning`.
    public static func decisionDeadlines(
        _ decisions: DecisionService,
        lease: Lease,
        interval: Duration = .seconds(5),
        pruning feed: ChangeFeed? = nil,
        every pruningInterval: Duration = .seconds(3600),
        logger: Logger
    ) -> PeriodicService {
        let lastPruned = Mutex<ContinuousClock.Instant?>(nil)
        return PeriodicService(
            description: "decision deadlines",
            interval: interval,
            logger: logger,
            stopped: { try await lease.release() },
            round: {
                guard try await lease.acquire() else { return }
                try await decisions.settleDue()
                guard let feed else { return }
                let due = lastPruned.withLock { last in last.map { ContinuousClock.now - $0 >= pruningInterval } ?? true }
                guard due else { return }
                let pruned = try await feed.prune()
                lastPruned.withLock { $0 = ContinuousClock.now }
                if pruned > 0 { logger.info("pruned the change feed", metadata: ["rows": "\(pruned)"]) }
            }
        )
    }
}
