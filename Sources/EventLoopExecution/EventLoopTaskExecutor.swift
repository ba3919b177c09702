import NIOCore

/// A task executor that runs the jobs of the tasks that prefer it on one event loop: the HTTP server's for a
/// connection's handling (`OnItsEventLoop`), the PostgreSQL pool's for a request's database access. Its own module so
/// that both use one, while neither imports the other and Core stays free of NIO.
public final class EventLoopTaskExecutor: TaskExecutor {
    public let eventLoop: any EventLoop

    public init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
