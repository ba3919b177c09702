import Logging
import PlacesCore
import Synchronization

extension PeriodicService {
    /// How soon the index sync looks again when changes wait above the feed's horizon.
    static let pendingRetry = Duration.milliseconds(5)

    /// Keeps the grid index in step with the database: every `interval`, or as soon as `doorbell` rings (the change
    /// feed's wake-up, on an engine that has one), it reads the change feed and applies what other processes (such as
    /// `places seed` on the same file, or other instances) committed. When changes were committed above the feed's
    /// horizon (behind a transaction still open), it looks again a few milliseconds later rather than at the next poll.
    public static func indexSync(
        _ places: PlaceService,
        interval: Duration = .seconds(1),
        doorbell: Doorbell? = nil,
        logger: Logger
    ) -> PeriodicService {
        let doorbell = doorbell ?? Doorbell()
        // While changes keep waiting above the horizon (a long transaction), it looks again 5 ms later, then twice as
        // late each time, up to the poll's interval.
        let retry = Mutex(pendingRetry)
        return PeriodicService(description: "index sync", interval: interval, doorbell: doorbell, logger: logger) {
            let changed = try await places.syncIndex()
            if changed > 0 { logger.info("index picked up changes", metadata: ["places": "\(changed)"]) }
            guard places.feedPending else {
                retry.withLock { $0 = pendingRetry }
                return
            }
            let wait = retry.withLock { wait in
                defer { wait = min(wait * 2, interval) }
                return wait
            }
            Task {
                try? await Task.sleep(for: wait)
                doorbell.ring()
            }
        }
    }
}
