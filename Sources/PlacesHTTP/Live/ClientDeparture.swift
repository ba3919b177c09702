import NIOCore

/// Tells when the client of a live stream goes: its side of the connection closed (the server allows half-closed
/// connections, so a client's close arrives as the end of its input, not as the channel closing), or the connection
/// dropped. A stream otherwise hears of it only when a write fails, at its next keep-alive.
///
/// It sits first in the connection's pipeline while the stream runs, passing everything on as it came.
final class ClientDeparture: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let left: @Sendable () -> Void

    /// Calls `left` when the client goes (perhaps more than once).
    init(_ left: @escaping @Sendable () -> Void) {
        self.left = left
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent { left() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        left()
        context.fireChannelInactive()
    }
}
