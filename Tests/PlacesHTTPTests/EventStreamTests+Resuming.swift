import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import Testing

@testable import PlacesHTTP

/// What both engines must do with a careless client: an id ahead of the feed gets a snapshot and the stream goes on
/// (never an hour of keep-alives and nothing else), and a stream its client closes frees its place at once. The
/// PostgreSQL suite runs the same checks (`PostgresEventStreamTests`).
extension EventStreamTests {
    /// Keep-alives a year apart: a stream whose client left is never noticed by a write, only by the close itself.
    static let noKeepAlive = LiveFeed.Settings(keepAlive: .seconds(365 * 86_400))

    @Test func anIdAheadOfTheFeedGetsASnapshotThenWhatFollowsNeverASilentStream() async throws {
        try await Self.withDecision(live: Self.noKeepAlive) { client, port, crew, decision in
            try await Self.idsAheadOfTheFeedGetASnapshot(client, port: port, crew: crew, decision: decision)
        }
    }

    @Test func aStreamItsClientClosesFreesItsPlaceAtOnce() async throws {
        try await Self.withDecision(live: Self.noKeepAlive) { client, port, crew, decision in
            try await Self.aClosedStreamFreesItsPlace(client, port: port, crew: crew, decision: decision)
        }
    }

    /// Ids of this database ahead of its feed (a position in the future, the largest position there is, numbers past
    /// it, an end that has not come): each stream opens with a snapshot, and the next ballot reaches every one of them.
    static func idsAheadOfTheFeedGetASnapshot(_ client: any TestClientProtocol, port: Int, crew: Crew, decision: String) async throws {
        let first = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ana)
        let snapshot = try #require(try await first.events(1).first?.id)
        first.close()
        let parts = snapshot.split(separator: "-")
        let generation = parts[0]
        let future = try #require(Int64(parts[1])) + 1_000_000
        let ahead = [
            "\(generation)-\(future)-0",
            "\(generation)-\(Int64.max)-\(Int64.max)",
            "\(generation)-\(Int64.max)-0",
            "\(generation)-99999999999999999999999-1",
            "\(generation)-\(future)-7-end",
        ]
        var streams: [EventStreamClient] = []
        for (index, id) in ahead.enumerated() {
            // Ben holds four, Cleo the fifth: at most five a person.
            let stream = try await EventStreamClient.open(
                port: port,
                "/v1/decisions/\(decision)/events",
                token: index < 4 ? crew.ben : crew.cleo,
                lastEventID: id
            )
            #expect(try await stream.events(1).map(\.name) == ["snapshot"], "Last-Event-ID \(id)")
            streams.append(stream)
        }
        try await vote(client, decision, crew.ana, ["lx-a-tasca"])
        for (stream, id) in zip(streams, ahead) {
            let events = try await stream.events(2)
            #expect(events.map(\.name) == ["snapshot", "ballot"], "Last-Event-ID \(id)")
            stream.close()
        }

        // The notifications' stream alike: a snapshot, then the next notification.
        let notes = try await EventStreamClient.open(
            port: port,
            "/v1/notifications/events",
            token: crew.cleo,
            lastEventID: "\(generation)-\(Int64.max)-\(Int64.max)"
        )
        #expect(try await notes.events(1).map(\.name) == ["snapshot"])
        try await EventStreamTests.cancelAndStartAnother(client, crew, decision)
        let note = try await notes.events(2)[1]
        #expect(note.name == "notification")
        #expect(note.object["kind"] as? String == "decisionStarted")
        notes.close()

        // Not in the form of an id at all: refused, naming the header (a sign, a space, a missing number, too long).
        for text in ["\(generation)-+5-1", "\(generation)- 5-1", "\(generation)--1", "\(generation)-5-1-later", String(repeating: "a", count: 97) + "-5-1"] {
            var headers = HTTPFields()
            headers[HTTPFields.Element.Name("Last-Event-ID")!] = text
            let refused = try await client.json(.get, "/v1/notifications/events", token: crew.ben, headers: headers)
            #expect(refused.status == .badRequest, "Last-Event-ID \(text)")
            #expect(try TestApp.error(refused.body).field == "Last-Event-ID")
        }
    }

    /// Five streams, the most one person may hold; one is closed by its client, and a sixth opens without waiting for
    /// a keep-alive or the lease to lapse (with keep-alives a year apart, and the leases renewed, nothing else would
    /// free its place).
    static func aClosedStreamFreesItsPlace(_ client: any TestClientProtocol, port: Int, crew: Crew, decision: String) async throws {
        var streams: [EventStreamClient] = []
        for _ in 0..<5 {
            let stream = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ben)
            try await stream.events(1)
            streams.append(stream)
        }
        let refused = try await client.json(.get, "/v1/notifications/events", token: crew.ben)
        #expect(refused.status == .tooManyRequests)
        streams[0].close()
        // The server hears of the close a moment after the client closes: try again until it has, within a guard far
        // above that moment (and far below a keep-alive or a lease).
        let guardTime = ContinuousClock.now + .seconds(10)
        var reopened: EventStreamClient?
        while reopened == nil, ContinuousClock.now < guardTime {
            let attempt = try await EventStreamClient.open(port: port, "/v1/notifications/events", token: crew.ben)
            if try await attempt.status() == 200 {
                reopened = attempt
            } else {
                attempt.close()
                try await Task.sleep(for: .seconds(0.05))
            }
        }
        let stream = try #require(reopened, "the closed stream still holds its place")
        #expect(try await stream.events(1).map(\.name) == ["snapshot"])
        // The others were not touched: a ballot still reaches them.
        try await vote(client, decision, crew.ana, ["lx-a-tasca"])
        for other in streams.dropFirst() { #expect(try await other.events(2)[1].name == "ballot") }
    }
}
