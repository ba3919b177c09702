import Hummingbird
import NIOCore
import NIOPosix

/// Runs each request's handling with its event loop as the task's executor.
///
/// The server runs Swift's global executor on its event loops (`places serve` installs NIO's singleton as it), and an
/// event loop runs each job as a serial executor of its own. So every call into a nonisolated `async` function (each
/// middleware, its `next`, each handler) is a switch to the generic executor that enqueues the task on the loop again
/// and waits for the loop's next turn: 132 switches for one nearby answer. With the loop as the task's preferred
/// executor, its jobs run as the generic executor's, and such a call goes on at once on the same thread; only the
/// suspensions that really wait (the database, the body's writer) go back through the loop.
struct EventLoopResponder<Responder: HTTPResponder>: HTTPResponder {
    typealias Context = Responder.Context

    let responder: Responder

    func respond(to request: Request, context: Context) async throws -> Response {
        guard let executor = EventLoopTaskExecutor.current else { return try await responder.respond(to: request, context: context) }
        return try await withTaskExecutorPreference(executor) { try await responder.respond(to: request, context: context) }
    }
}

/// A task executor that runs its jobs on one event loop.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// The executor of the event loop this thread runs, made once per loop; nil off the server's loops.
    static var current: EventLoopTaskExecutor? {
        if let executor = perThread.currentValue { return executor }
        guard let loop = MultiThreadedEventLoopGroup.currentEventLoop else { return nil }
        let executor = EventLoopTaskExecutor(loop)
        perThread.currentValue = executor
        return executor
    }

    private static let perThread = ThreadSpecificVariable<EventLoopTaskExecutor>()
}
