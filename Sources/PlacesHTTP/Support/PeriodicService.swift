import Logging
import ServiceLifecycle

/// Background work done in rounds while the server runs: a round every interval until graceful shutdown, and a round
/// that fails is logged and tried again at the next.
public struct PeriodicService: Service, CustomStringConvertible {
    /// What the work is, for the service group's log.
    public let description: String
    let interval: Duration
    let logger: Logger
    let round: @Sendable () async throws -> Void

    public func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            do {
                try await round()
            } catch {
                logger.warning("\(description) failed; retrying", metadata: ["error": "\(error)"])
            }
        }
    }
}
