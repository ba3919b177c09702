import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import PlacesHTTP

@Suite("Connections served on their event loops")
struct OnItsEventLoopTests {
    /// Where a connection's handling ran, and how its calls went on.
    struct Sighting: Sendable, Equatable {
        /// On the thread of the loop that serves the connection's socket, before and after a call and a suspension.
        let onLoop: [Bool]
        /// With an executor preferred for the task.
        let preferred: Bool
    }

    /// What the witnesses saw, in order.
    final class Sightings: Sendable {
        private let list = Mutex<[Sighting]>([])
        func append(_ sighting: Sighting) { list.withLock { $0.append(sighting) } }
        var all: [Sighting] { list.withLock { $0 } }
    }

    struct Value: ServerChildChannelValue {
        let channel: any Channel
    }

    /// A connection's handler that notes where it runs: first, after a call into a nonisolated async function, and
    /// after a suspension that resumes from another thread.
    struct Witness: ServerChildChannel {
        let seen: Sightings

        func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
            channel.eventLoop.makeSucceededFuture(Value(channel: channel))
        }

        func handle(value: Value, logger: Logger) async {
            let loop = value.channel.eventLoop
            var onLoop = [loop.inEventLoop]
            await Self.elsewhere()
            onLoop.append(loop.inEventLoop)
            try? await Task.sleep(for: .milliseconds(1))
            onLoop.append(loop.inEventLoop)
            let preferred = withUnsafeCurrentTask { $0?.unownedTaskExecutor != nil }
            seen.append(Sighting(onLoop: onLoop, preferred: preferred))
        }

        nonisolated static func elsewhere() async {}
    }

    @Test func aConnectionIsHandledOnItsLoopThroughCallsAndSuspensions() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let channel = try await DatagramBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
        let seen = Sightings()
        let logger = Logger(label: "test")

        // As Hummingbird would: set up on the channel's loop, then handled in a task of its own.
        let plain = Witness(seen: seen)
        await plain.handle(value: try await plain.setup(channel: channel, logger: logger).get(), logger: logger)
        let served = OnItsEventLoop(connection: Witness(seen: seen))
        await served.handle(value: try await served.setup(channel: channel, logger: logger).get(), logger: logger)

        #expect(
            seen.all == [
                Sighting(onLoop: [false, false, false], preferred: false),
                Sighting(onLoop: [true, true, true], preferred: true),
            ]
        )
        try await channel.close()
        try await group.shutdownGracefully()
    }
}
