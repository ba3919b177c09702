import Hummingbird
import Logging
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import PlacesHTTP

@Suite("Handlers on the event loops")
struct EventLoopResponderTests {
    /// Where the wrapped responder ran.
    struct Sighting: Sendable, Equatable {
        /// On the loop's thread.
        let onLoop: Bool
        /// With the executor of the loop it ran on preferred (the one `EventLoopTaskExecutor.current` answers).
        let preferred: Bool
    }

    /// What the witness saw, in order.
    final class Sightings: Sendable {
        let list = Mutex<[Sighting]>([])
    }

    struct Source: RequestContextSource {
        let logger: Logger
    }

    struct Context: RequestContext {
        typealias Source = EventLoopResponderTests.Source
        var coreContext: CoreRequestContextStorage
        init(source: Source) { coreContext = .init(source: source) }
    }

    /// A responder that notes where it ran.
    struct Witness: HTTPResponder {
        let loop: any EventLoop
        let seen: Sightings

        func respond(to request: Request, context: Context) async throws -> Response {
            let preferred = withUnsafeCurrentTask { task in
                guard let task, let loopExecutor = EventLoopTaskExecutor.current else { return false }
                return task.unownedTaskExecutor == loopExecutor.asUnownedTaskExecutor()
            }
            seen.list.withLock { $0.append(Sighting(onLoop: loop.inEventLoop, preferred: preferred)) }
            return Response(status: .ok)
        }
    }

    @Test func eachLoopHasOneExecutorAndOtherThreadsNone() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let (first, second) = (group.next(), group.next())
        let onFirst = try await first.submit { EventLoopTaskExecutor.current.map(ObjectIdentifier.init) }.get()
        let onFirstAgain = try await first.submit { EventLoopTaskExecutor.current.map(ObjectIdentifier.init) }.get()
        let onSecond = try await second.submit { EventLoopTaskExecutor.current.map(ObjectIdentifier.init) }.get()
        let loopOfFirst = try await first.submit { EventLoopTaskExecutor.current?.eventLoop === first }.get()
        #expect(onFirst != nil && onFirst == onFirstAgain)
        #expect(onSecond != nil && onSecond != onFirst)
        #expect(loopOfFirst)
        #expect(EventLoopTaskExecutor.current == nil)
        try await group.shutdownGracefully()
    }

    @Test func aRequestThatArrivesOnALoopIsHandledThereWithTheLoopsExecutorPreferred() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let seen = Sightings()
        let responder = EventLoopResponder(responder: Witness(loop: loop, seen: seen))
        let request = Request(head: .init(method: .get, scheme: "http", authority: "localhost", path: "/"), body: .init(buffer: ByteBuffer()))
        let context = Context(source: Source(logger: Logger(label: "test")))

        // Off the loops (the router's tests): handled as it comes, with no executor preferred.
        _ = try await responder.respond(to: request, context: context)
        // A task that begins on the loop's thread under an executor of its own: the handler runs on that loop, with
        // the loop's own executor preferred instead.
        let arrival = EventLoopTaskExecutor(loop)
        _ = try await Task(executorPreference: arrival) { try await responder.respond(to: request, context: context) }.value

        #expect(seen.list.withLock { $0 } == [Sighting(onLoop: false, preferred: false), Sighting(onLoop: true, preferred: true)])
        try await group.shutdownGracefully()
    }
}
