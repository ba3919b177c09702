import Logging
import PlacesCore
import ServiceLifecycle

/// Passes decisions' deadlines while the server runs, whether or not anybody looks: every interval it counts,
/// draws or expires what is due and sends the reminders an hour before.
public struct DecisionDeadlineService: Service {
    let decisions: DecisionService
    let interval: Duration
    let logger: Logger

    /// Makes the service; it looks every `interval`.
    public init(decisions: DecisionService, interval: Duration = .seconds(5), logger: Logger) {
        self.decisions = decisions
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
                try await decisions.enforceDeadlines()
            } catch {
                logger.warning("decision deadlines failed; retrying", metadata: ["error": "\(error)"])
            }
        }
    }
}
