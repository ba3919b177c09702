import Logging
import PlacesCore
import Synchronization

extension PeriodicService {
    /// Keeps the grid index in step with the database: every `interval`, or as soon as `doorbell` rings (the change
    /// feed's wake-up, on an engine that has one), it reads the change feed and applies what other processes (such as
    /// `places seed` on the same file, or other instances) committed. When changes were committed above the feed's
    /// horizon (behind a transaction still open), it looks again a few milliseconds later (`FeedRetry`) rather than at
    /// the next poll.
    public static func indexSync(
        _ places: PlaceService,
        interval: Duration = .seconds(1),
        doorbell: Doorbell? = nil,
        logger: Logger
    ) -> PeriodicService {
        let doorbell = doorbell ?? Doorbell()
        let retry = Mutex(FeedRetry(poll: interval))
        return PeriodicService(description: "index sync", interval: interval, doorbell: doorbell, logger: logger) {
            let revision = places.indexRevision
            let changed = try await places.syncIndex()
            if changed > 0 { logger.info("index picked up changes", metadata: ["places": "\(changed)"]) }
            let movedOn = places.indexRevision > revision
            guard let wait = retry.withLock({ $0.after(pending: places.feedPending, movedOn: movedOn) }) else { return }
            Task {
                try? await Task.sleep(for: wait)
                doorbell.ring()
            }
        }
    }
}
