import Foundation
import NIOCore
import NIOPosix
import Testing

/// A bare TCP connection to a live server, for what a well-behaved HTTP client never sends: headers whose body never
/// comes, half a body.
enum RawConnection {
    /// What the client does once it has sent its bytes.
    enum Ending: Sendable, CustomTestStringConvertible {
        /// Keeps its side open and reads until the server closes the connection.
        case keepOpen
        /// Ends its side (FIN) and reads until the server closes the connection.
        case halfClose
        /// Closes the connection at once and reads nothing.
        case close

        /// The name a parameterized test shows.
        var testDescription: String {
            switch self {
            case .keepOpen: "keep open"
            case .halfClose: "half-close"
            case .close: "close"
            }
        }
    }

    /// Thrown when the server has not closed the connection within the guard's time.
    struct StillOpen: Error {}

    /// Connects to 127.0.0.1:`port`, sends `text`, ends as `ending` says and gives back what the server wrote.
    ///
    /// `limit` is a guard against a server that never answers or never closes, far above what a correct one needs;
    /// nothing is measured against it.
    static func exchange(_ text: String, port: Int, ending: Ending, limit: Duration = .seconds(60)) async throws -> String {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(
                        wrappingChannelSynchronously: channel,
                        configuration: .init(isOutboundHalfClosureEnabled: true)
                    )
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: text))
            switch ending {
            case .close: return ""
            case .halfClose: outbound.finish()
            case .keepOpen: break
            }
            return try await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask {
                    var received = ByteBuffer()
                    do {
                        for try await var part in inbound { received.writeBuffer(&part) }
                    } catch let error as IOError where error.errnoCode == ECONNRESET {
                        // Closing with bytes of ours unread, the server resets the connection: that ends it too.
                    }
                    return String(buffer: received)
                }
                group.addTask {
                    try await Task.sleep(for: limit)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let received = first else { throw StillOpen() }
                return received
            }
        }
    }
}
