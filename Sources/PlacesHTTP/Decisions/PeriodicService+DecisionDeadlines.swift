import Logging
import PlacesCore

extension PeriodicService {
    /// Passes decisions' deadlines while the server runs, whether or not anybody looks: every `interval` it counts,
    /// draws or expires what is due and sends the reminders an hour before.
    public static func decisionDeadlines(_ decisions: DecisionService, interval: Duration = .seconds(5), logger: Logger) -> PeriodicService {
        PeriodicService(description: "decision deadlines", interval: interval, logger: logger) {
            try await decisions.enforceDeadlines()
        }
    }
}
