import Logging
import PlacesCore

extension PeriodicService {
    /// Keeps the grid index in step with the database: every `interval`, or as soon as `doorbell` rings (the change
    /// feed's wake-up, on an engine that has one), it reads the change counter and applies what other processes (such
    /// as `places seed` on the same file, or other instances) committed, in commit order.
    public static func indexSync(
        _ places: PlaceService,
        interval: Duration = .seconds(1),
        doorbell: Doorbell? = nil,
        logger: Logger
    ) -> PeriodicService {
        PeriodicService(description: "index sync", interval: interval, doorbell: doorbell, logger: logger) {
            let changed = try await places.syncIndex()
            if changed > 0 { logger.info("index picked up changes", metadata: ["places": "\(changed)"]) }
        }
    }
}
