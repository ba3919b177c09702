import EventLoopExecution
import HummingbirdCore
import Logging
import NIOCore

/// Serves each connection with the event loop that reads and writes its socket as the task's executor.
///
/// `places serve` runs Swift's global executor on the server's event loops (NIO's singleton), and an event loop runs
/// each job as a serial executor of its own. So every call into a nonisolated `async` function (each middleware, its
/// `next`, the handler, the response's writer) was a switch to the generic executor, which enqueued the task on a loop
/// again and waited for the loop's next turn: 133 jobs for one nearby answer. With the connection's loop as the task's
/// preferred executor, its jobs run as the generic executor's, so such a call goes on at once on the same thread, and
/// what really waits (the socket, the database) resumes on the connection's own loop.
struct OnItsEventLoop<Connection: ServerChildChannel>: ServerChildChannel {
    typealias Value = Connection.Value

    let connection: Connection

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        connection.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await connection.handle(value: value, logger: logger)
        }
    }
}
