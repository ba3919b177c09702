import Hummingbird
import Logging
import NIOCore
import PlacesCore
import ServiceLifecycle

/// The live streams (Server-Sent Events): `GET /v1/decisions/{id}/events` and `GET /v1/notifications/events`.
///
/// A stream is answered at once with its headers, then written as the feed brings events, until it ends: after a
/// decision's final event, after `LiveFeed.Settings.maxDuration`, when its reader loses access, when its client does not
/// keep up, or when the server stops (graceful shutdown ends every stream, so none holds SIGTERM up). `HEAD` answers
/// the headers after the same checks and opens nothing.
struct EventStreamController: Sendable {
    let live: LiveService

    /// What the stream's client waits before reconnecting after the connection drops, in milliseconds.
    static let reconnectAfter = 2000

    /// `GET /v1/decisions/{id}/events`: the decision's ballots (who, never what) and its end, as its reader sees them.
    @Sendable func decisionEvents(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let id = try context.pathText("id")
        if request.method == .head {
            try await live.checkDecision(caller, id: id)
            return Response(status: .ok, headers: EventStreamController.headers)
        }
        guard let stream = try await live.decisionEvents(caller, id: id, lastEventID: try Self.lastEventID(request)) else {
            // Ended, and nothing the client has not seen: a browser's EventSource stops reconnecting at a 204.
            return Response(status: .noContent)
        }
        return await response(stream, context: context)
    }

    /// `GET /v1/notifications/events`: the caller's new notifications.
    @Sendable func notificationEvents(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        if request.method == .head { return Response(status: .ok, headers: EventStreamController.headers) }
        return await response(try await live.notificationEvents(caller, lastEventID: try Self.lastEventID(request)), context: context)
    }

    /// True for the paths of the streams, which request metrics leave out (they have their own).
    static func isStream(_ path: String) -> Bool {
        path.hasSuffix("/events") && (path == "/v1/notifications/events" || path.hasPrefix("/v1/decisions/"))
    }

    static let headers: HTTPFields = [
        .contentType: "text/event-stream",
        .cacheControl: "no-store",
        // nginx passes the stream on as it is written, whatever its proxy_buffering says.
        HTTPFields.Element.Name("X-Accel-Buffering")!: "no",
    ]

    /// `Last-Event-ID`, when the client sent one (an empty one counts as none, as EventSource sends after a reset).
    static func lastEventID(_ request: Request) throws(PlacesError) -> String? {
        guard let text = request.headers[HTTPFields.Element.Name("Last-Event-ID")!], !text.isEmpty else { return nil }
        return text
    }

    /// How many bytes the kernel keeps for a stream's client at most: a client that does not read holds up no more
    /// of the server's memory than this and the signals its stream may have waiting (`LiveFeed.Settings.pending`).
    static let sendBuffer: Int32 = 64 * 1024

    /// The stream as an answer: written until it ends, then closed (its lease given up).
    private func response(_ stream: LiveStream, context: PlacesRequestContext) async -> Response {
        let channel = context.channel
        try? await channel.setOption(.socketOption(.so_sndbuf), value: SocketOptionValue(Self.sendBuffer)).get()
        let logger = context.logger
        let departure = ClientDeparture { stream.clientLeft() }
        let body = ResponseBody { writer in
            // A client that closes its connection ends the stream at once, and its lease with it: noticed by the
            // connection's first handler, which sees the end of its input before the HTTP handlers (which take the
            // next request only once this answer ends). Had it closed before the handler is there, it is noticed at the
            // next write, a keep-alive at most `LiveFeed.Settings.keepAlive` later.
            do {
                try await channel.pipeline.addHandler(departure, position: .first).get()
            } catch {
                stream.clientLeft()
            }
            // A write stuck on a client that does not read is cut off: once the feed has ended the stream (too slow,
            // or the server stopping), the connection is closed a second later if the stream has not finished by then.
            let watchdog = Task {
                guard await stream.stopped() else { return }
                do {
                    try await Task.sleep(for: .seconds(1))
                    channel.close(mode: .all, promise: nil)
                } catch {}
            }
            defer { watchdog.cancel() }
            var first = true
            let ending = await withGracefulShutdownHandler {
                await stream.run { message in
                    var buffer = ByteBuffer()
                    if first {
                        buffer.writeString("retry: \(EventStreamController.reconnectAfter)\n\n")
                        first = false
                    }
                    EventStreamController.write(message, to: &buffer)
                    try await writer.write(buffer)
                }
            } onGracefulShutdown: {
                stream.end()
            }
            logger.debug("event stream ended", metadata: ["reason": "\(stream.endedByFeed ?? ending)"])
            await stream.close()
            try? await channel.pipeline.removeHandler(departure).get()
            // The last chunk; when the client is gone already, that fails, and the connection closes all the same.
            try? await writer.finish(nil)
        }
        return Response(status: .ok, headers: EventStreamController.headers, body: body)
    }

    /// A message in the stream's format: `id`, `event` and `data` lines and a blank line, or a comment.
    static func write(_ message: LiveMessage, to buffer: inout ByteBuffer) {
        switch message {
        case .event(let id, let name, let data):
            buffer.writeString("id: \(id)\nevent: \(name)\ndata: \(data)\n\n")
        case .comment(let text):
            buffer.writeString(": \(text)\n\n")
        }
    }
}

extension EventStreamController {
    /// The routes of the live streams, in the order their paths' `Allow` headers name their methods.
    var routes: [Route] {
        [
            Route(.get, "v1/decisions/{id}/events", signedIn: decisionEvents),
            Route(.get, "v1/notifications/events", signedIn: notificationEvents),
        ]
    }
}
