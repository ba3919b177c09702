import Logging
import PlacesCore

extension PeriodicService {
    /// Keeps the grid index in step with the database: every `interval` it polls the change counter and applies what
    /// other processes (such as `places seed` on the same file) committed, in commit order.
    public static func indexSync(_ places: PlaceService, interval: Duration = .seconds(1), logger: Logger) -> PeriodicService {
        PeriodicService(description: "index sync", interval: interval, logger: logger) {
            let changed = try await places.syncIndex()
            if changed > 0 { logger.info("index picked up changes", metadata: ["places": "\(changed)"]) }
        }
    }
}
