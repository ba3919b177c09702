import Foundation

/// What a live stream writes: an event (its id, its name and its data, one line of JSON) or a comment.
public enum LiveMessage: Sendable, Hashable {
    /// An event a client handles.
    case event(id: String, name: String, data: String)
    /// A line clients ignore (a keep-alive).
    case comment(String)
}

/// One open stream: what it writes first (a snapshot, or the events a resuming client missed), then what the feed
/// brings, until it ends. Its lease counts it among its person's streams until `close()`.
public struct LiveStream: Sendable {
    /// Why a stream ended.
    public enum Ending: String, Sendable {
        /// It wrote the decision's final event.
        case final
        /// It was open as long as a stream stays open; the client resumes.
        case maxDuration = "max_duration"
        /// Its reader may no longer read what it follows, or signed out.
        case accessLost = "access_lost"
        /// Its client did not read fast enough; it resumes.
        case tooSlow = "too_slow"
        /// The server is stopping; the client resumes on another instance.
        case shutdown
        /// The database was replaced or the feed pruned past it; the client resumes for a snapshot.
        case feedReset = "feed_reset"
        /// The client went away, or a write to it failed.
        case clientLeft = "client_left"
        /// The database could not answer what the stream needed; the client resumes.
        case unavailable

        init(_ ending: LiveFeed.Ending) {
            switch ending {
            case .accessLost: self = .accessLost
            case .tooSlow: self = .tooSlow
            case .shutdown: self = .shutdown
            case .feedReset: self = .feedReset
            case .clientLeft: self = .clientLeft
            }
        }
    }

    /// What a stream makes of the feed's events of its topic: messages, and whether the last one ends it.
    struct Rendered: Sendable {
        var messages: [LiveMessage] = []
        var final = false
    }

    let feed: LiveFeed
    let subscription: LiveFeed.Subscription
    let leaseID: String
    /// What is written first.
    var opening: Rendered
    /// Events at or before this were written already (or are in the opening).
    var written: FeedPosition
    /// When it ends, however busy.
    let deadline: Date
    let clock: @Sendable () -> Date
    /// Renders events of the topic for the stream's reader: the events, the database's generation, the position they
    /// run through, and the reads shared with the other streams given them.
    let render: @Sendable ([FeedEvent], String, FeedPosition, SharedReads) async throws -> Rendered
    let recheck: @Sendable () async throws -> Void

    /// Writes the stream through `write` until it ends, and answers why. A `write` that throws (the client left) ends it.
    public func run(_ write: (LiveMessage) async throws -> Void) async -> Ending {
        do {
            for message in opening.messages {
                try await write(message)
                if case .event = message { feed.sent() }
            }
        } catch {
            return .clientLeft
        }
        if opening.final { return .final }
        var written = written
        for await signal in subscription.signals {
            if clock() >= deadline { return .maxDuration }
            do {
                switch signal {
                case .keepAlive:
                    try await write(.comment("keep-alive"))
                case .recheck:
                    do {
                        try await recheck()
                    } catch let error as PlacesError where [.forbidden, .notFound].contains(error.code) {
                        return .accessLost
                    } catch {
                        return .unavailable
                    }
                case .events(let events, let reads):
                    let fresh = events.filter { $0.position > written }
                    guard let last = fresh.last else { continue }
                    let rendered: Rendered
                    do {
                        rendered = try await render(fresh, subscription.generation, last.position, reads)
                    } catch let error as PlacesError where [.forbidden, .notFound].contains(error.code) {
                        return .accessLost
                    } catch {
                        return .unavailable
                    }
                    written = last.position
                    for message in rendered.messages {
                        try await write(message)
                        if case .event = message { feed.sent() }
                    }
                    if rendered.final { return .final }
                }
            } catch {
                return .clientLeft
            }
        }
        return feed.ending(of: subscription.id).map(Ending.init) ?? .shutdown
    }

    /// Returns when the feed ends the stream (it may be stuck writing to a client that does not read); false when the
    /// wait was cancelled first.
    public func stopped() async -> Bool {
        await subscription.stop.wait()
    }

    /// Why the feed ended the stream, if it did.
    public var endedByFeed: Ending? {
        feed.ending(of: subscription.id).map(Ending.init)
    }

    /// Ends the stream from outside (the server is stopping): its signals stop, and a write stuck is interrupted.
    public func end() {
        feed.end(subscription.id, .shutdown)
    }

    /// Ends the stream because its client closed the connection: noticed when it closes rather than at the next write
    /// (a keep-alive, up to `LiveFeed.Settings.keepAlive` later), so that `close()` gives its lease up at once and the
    /// client, reloading, may open another.
    public func clientLeft() {
        feed.end(subscription.id, .clientLeft)
    }

    /// Leaves the feed and gives the stream's lease up, so that it no longer counts.
    public func close() async {
        feed.leave(subscription.id)
        let leaseID = leaseID
        let repository = feed.repository
        // In a task of its own: the stream's task may be cancelled (its client left), and the lease must go anyway.
        _ = await Task { try? await repository.closeStream(id: leaseID) }.value
    }
}
