import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// A client of a live event stream over a bare TCP connection, reading the stream as it comes (HummingbirdTesting's
/// clients collect whole bodies). It de-chunks the body and parses Server-Sent Events.
final class EventStreamClient: Sendable {
    /// One event as a client sees it.
    struct Event: Sendable, CustomStringConvertible {
        var id: String?
        var name: String
        var data: String

        /// The data as a JSON object.
        var object: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]) ?? [:]
        }

        var description: String { "\(name) \(id ?? "-")" }
    }

    /// What was read: the response's head, then the stream's messages (events and comments) in order.
    private struct State {
        var raw: [UInt8] = []
        var head: String?
        var body: [UInt8] = []
        var consumed = 0
        var events: [Event] = []
        var comments: [String] = []
        var closed = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let channel: Mutex<(any Channel)?> = Mutex(nil)

    private init() {}

    /// Opens `path` on 127.0.0.1:`port` with a bearer `token` (and `Last-Event-ID` when given). A client with a
    /// `receiveBuffer` reads nothing until `startReading()`: a slow client.
    static func open(
        port: Int,
        _ path: String,
        token: String?,
        lastEventID: String? = nil,
        receiveBuffer: Int? = nil
    ) async throws -> EventStreamClient {
        let client = EventStreamClient()
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Collector(client: client)) }
            }
        if let receiveBuffer {
            bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBuffer))
                .channelOption(.autoRead, value: false)
        }
        let channel = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
        client.channel.withLock { $0 = channel }
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        if let token { request += "Authorization: Bearer \(token)\r\n" }
        if let lastEventID { request += "Last-Event-ID: \(lastEventID)\r\n" }
        request += "\r\n"
        try await channel.writeAndFlush(ByteBuffer(string: request))
        return client
    }

    /// Hands what the server writes to its client.
    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let client: EventStreamClient
        init(client: EventStreamClient) { self.client = client }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            client.received(Array(unwrapInboundIn(data).readableBytesView))
        }

        func channelInactive(context: ChannelHandlerContext) {
            client.finished()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }

    /// Starts reading what the server writes (a slow client starts late).
    func startReading() {
        guard let channel = channel.withLock({ $0 }) else { return }
        channel.setOption(.autoRead, value: true).whenSuccess { channel.read() }
    }

    /// Closes the connection.
    func close() {
        channel.withLock { $0 }?.close(promise: nil)
    }

    /// The response's status, once its head arrived.
    func status(within limit: Duration = .seconds(30)) async throws -> Int {
        try await until(limit) { $0.head != nil || $0.closed }
        let head = state.withLock { $0.head } ?? ""
        return Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// The response's head.
    var head: String { state.withLock { $0.head } ?? "" }

    /// The events so far.
    var events: [Event] { state.withLock { $0.events } }

    /// The comments so far.
    var comments: [String] { state.withLock { $0.comments } }

    /// True once the server closed the connection or ended the body.
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Waits until `count` events arrived, and answers them all.
    @discardableResult
    func events(_ count: Int, within limit: Duration = .seconds(30)) async throws -> [Event] {
        try await until(limit) { $0.events.count >= count || $0.closed }
        let events = self.events
        guard events.count >= count else {
            Issue.record("expected \(count) events, the stream closed after \(events)")
            return events
        }
        return events
    }

    /// Waits until the stream ends (the server closed it or ended its body).
    func closed(within limit: Duration = .seconds(30)) async throws {
        try await until(limit) { $0.closed }
    }

    /// Waits until a comment arrived.
    func comment(within limit: Duration = .seconds(30)) async throws {
        try await until(limit) { !$0.comments.isEmpty }
    }

    /// Thrown when what a test waits for did not come within its guard's time.
    struct TimedOut: Error, CustomStringConvertible {
        let events: [Event]
        var description: String { "timed out after \(events.count) events: \(events.suffix(3))" }
    }

    /// Waits until `condition` holds; `limit` guards against a server that never writes, far above what one needs.
    private func until(_ limit: Duration, _ condition: @escaping @Sendable (State) -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while !state.withLock({ condition($0) }) {
            guard ContinuousClock.now < deadline else { throw TimedOut(events: events) }
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    if condition(state) { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if ready { continuation.resume() }
                // Wake up now and then to check the deadline.
                Task {
                    try? await Task.sleep(for: .milliseconds(100))
                    self.wakeAll()
                }
            }
        }
    }

    private func wakeAll() {
        let waiters = state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func received(_ bytes: [UInt8]) {
        state.withLock { state in
            state.raw += bytes
            if state.head == nil, let end = Self.find([13, 10, 13, 10], in: state.raw) {
                state.head = String(decoding: state.raw[..<end], as: UTF8.self)
                state.raw.removeFirst(end + 4)
            }
            guard state.head != nil else { return }
            // De-chunk: a size line, the data, CRLF.
            while let lineEnd = Self.find([13, 10], in: state.raw) {
                let sizeText = String(decoding: state.raw[..<lineEnd], as: UTF8.self)
                guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else {
                    // Not chunked (a body with a length): take it whole.
                    state.body += state.raw
                    state.raw = []
                    break
                }
                guard state.raw.count >= lineEnd + 2 + size + 2 else { break }
                if size == 0 { state.closed = true }
                state.body += state.raw[(lineEnd + 2)..<(lineEnd + 2 + size)]
                state.raw.removeFirst(lineEnd + 2 + size + 2)
            }
            Self.parse(&state)
        }
        wakeAll()
    }

    private func finished() {
        state.withLock { $0.closed = true }
        wakeAll()
    }

    /// Parses every whole message of the body not parsed yet.
    private static func parse(_ state: inout State) {
        while let end = find([10, 10], in: Array(state.body[state.consumed...])) {
            let text = String(decoding: state.body[state.consumed..<(state.consumed + end)], as: UTF8.self)
            state.consumed += end + 2
            var event = Event(id: nil, name: "message", data: "")
            var isEvent = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(":") {
                    state.comments.append(String(line.dropFirst().trimmingCharacters(in: .whitespaces)))
                } else if line.hasPrefix("id: ") {
                    event.id = String(line.dropFirst(4))
                    isEvent = true
                } else if line.hasPrefix("event: ") {
                    event.name = String(line.dropFirst(7))
                    isEvent = true
                } else if line.hasPrefix("data: ") {
                    event.data += String(line.dropFirst(6))
                    isEvent = true
                }
            }
            if isEvent { state.events.append(event) }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
