import Logging
import PlacesCore
import ServiceLifecycle

/// Keeps the grid index in step with the database: every interval it applies what other processes
/// (such as `places seed` on the same file) committed, in commit order.
public struct IndexSyncService: Service {
    let service: PlaceService
    let interval: Duration
    let logger: Logger

    /// Makes the service; it polls the change counter every `interval`.
    public init(service: PlaceService, interval: Duration = .seconds(1), logger: Logger) {
        self.service = service
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            do {
                let changed = try await service.syncIndex()
                if changed > 0 { logger.info("index picked up changes", metadata: ["places": "\(changed)"]) }
            } catch {
                logger.warning("index sync failed; retrying", metadata: ["error": "\(error)"])
            }
        }
    }
}
