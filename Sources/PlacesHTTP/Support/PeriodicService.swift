import Logging
import PlacesCore
import ServiceLifecycle

/// Background work done in rounds while the server runs: a round every interval until graceful shutdown, and a round that fails is logged and tried again at the next.
public struct PeriodicService: Service, CustomStringConvertible {
    /// What the work is, for the service group's log.
    public let description: String
    let interval: Duration
    let logger: Logger
    /// Run once when the rounds stop (graceful shutdown, or cancellation), such as giving up a lease.
    var stopped: (@Sendable () async throws -> Void)?
    let round: @Sendable () async throws -> Void

    public func run() async throws {
        await rounds()
        guard let stopped else { return }
        // In a task of its own: a cancelled service's task would have its database access refused.
        let ending = Task { try await stopped() }
        if case .failure(let error) = await ending.result {
            logger.warning("\(description) could not finish stopping", metadata: ["error": "\(error)"])
        }
    }

    /// The rounds, until graceful shutdown or cancellation.
    private func rounds() async {
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown {
                    try await Task.sleep(for: interval)
                    try Task.checkCancellation()
                }
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

/// Background work that runs as long as the server does (such as listening to the change feed), ended by cancellation
/// at graceful shutdown.
public struct BackgroundTask: Service, CustomStringConvertible {
    /// What the work is, for the service group's log.
    public let description: String
    let work: @Sendable () async -> Void

    public init(_ description: String, work: @escaping @Sendable () async -> Void) {
        self.description = description
        self.work = work
    }

    public func run() async throws {
        try await cancelWhenGracefulShutdown { await work() }
    }
}
