import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import Synchronization
import Testing

@testable import PlacesHTTP

/// The live streams over a real socket: what they carry and to whom, resuming, and how they end.
@Suite("Live event streams")
struct EventStreamTests {
    /// A live server, a group of three (ana the admin, ben, cleo; dan outside it) and their tiered decision over
    /// Lisbon's places.
    static func withDecision(
        live: LiveFeed.Settings = LiveFeed.Settings(),
        metrics: PlacesMetrics = PlacesMetrics(),
        _ test: @Sendable (any TestClientProtocol, Int, Crew, String) async throws -> Void
    ) async throws {
        let app = try await TestApp.togetherServices(Lisbon.places, clock: { Date() }, metrics: metrics, live: live).app
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let crew = try await client.crew("Dinner", admin: "ana", members: ["ben", "cleo"], outsiders: ["dan"])
            try await test(client, port, crew, try await startDecision(client, crew))
        }
    }

    /// The crew's admin starts a tiered decision over Lisbon's places: its id.
    static func startDecision(_ client: any TestClientProtocol, _ crew: Crew) async throws -> String {
        let started = try await client.object(
            .post,
            "/v1/decisions",
            token: crew.token("ana"),
            body: ["groupId": crew.id, "method": "tiered", "candidates": ["placeIds": Lisbon.places.map(\.id)]],
            expect: .created
        )
        return try #require(started["id"] as? String)
    }

    /// Ana cancels `decision` and starts another, which notifies Ben and Cleo.
    static func cancelAndStartAnother(_ client: any TestClientProtocol, _ crew: Crew, _ decision: String) async throws {
        _ = try await client.object(.post, "/v1/decisions/\(decision)/cancel", token: crew.ana)
        _ = try await client.object(
            .post,
            "/v1/decisions",
            token: crew.ana,
            body: ["groupId": crew.id, "method": "tiered", "candidates": ["placeIds": ["lx-a-tasca", "lx-c-cantina"]]],
            expect: .created
        )
    }

    static func vote(_ client: any TestClientProtocol, _ decision: String, _ token: String, _ ranking: [String]) async throws {
        _ = try await client.object(.put, "/v1/decisions/\(decision)/ballot", token: token, body: ["ranking": ranking])
    }

    @Test func aBallotReachesEveryStreamAsWhoVotedNeverWhatAndStandingsOnlyForThoseWhoVoted() async throws {
        try await Self.withDecision { client, port, crew, decision in
            let ben = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ben)
            let ana = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ana)
            #expect(try await ben.status() == 200)
            #expect(ben.head.lowercased().contains("content-type: text/event-stream"))
            let snapshot = try await ben.events(1)[0]
            #expect(snapshot.name == "snapshot")
            #expect((snapshot.object["decision"] as? [String: Any])?["id"] as? String == decision)
            try await ana.events(1)

            try await Self.vote(client, decision, crew.ana, ["lx-c-cantina", "lx-a-tasca"])
            let benSees = try await ben.events(2)[1]
            let anaSees = try await ana.events(2)[1]
            #expect(benSees.name == "ballot")
            #expect((benSees.object["voter"] as? [String: Any])?["username"] as? String == "ana")
            let benView = try #require(benSees.object["decision"] as? [String: Any])
            #expect(benView["waitingFor"] as? [String] == ["ben", "cleo"])
            // Ben has not voted: no standings for him, and nobody's ranking anywhere.
            #expect(benView["tallyVisible"] as? Bool == false)
            #expect(benView["provisional"] == nil)
            #expect(!benSees.data.contains("lx-c-cantina\",\"lx-a-tasca"))
            #expect(!benSees.data.contains("ranking"))
            // Ana voted: she sees the standings, as her view of the decision shows them, and her own ballot.
            let anaView = try #require(anaSees.object["decision"] as? [String: Any])
            #expect(anaView["tallyVisible"] as? Bool == true)
            #expect(anaView["provisional"] != nil)
            #expect(benSees.id == anaSees.id)

            try await Self.vote(client, decision, crew.ben, ["lx-a-tasca"])
            try await Self.vote(client, decision, crew.cleo, ["lx-c-cantina"])
            // Cleo's ballot was the last: a ballot event, then the end, and the stream closes.
            let all = try await ben.events(5)
            #expect(all.map(\.name) == ["snapshot", "ballot", "ballot", "ballot", "ended"])
            let ended = all[4].object["decision"] as? [String: Any]
            #expect(ended?["status"] as? String == "completed")
            #expect((ended?["result"] as? [String: Any])?["winner"] != nil)
            try await ben.closed()
            try await ana.closed()
            // Ids grow, and none repeats.
            #expect(Set(all.compactMap(\.id)).count == 5)
        }
    }

    @Test func aSwipeRoundReachesTheStreamAsWhoAnsweredNeverWhatThenItsEndWithTheSurvivors() async throws {
        let app = try await TestApp.togetherServices(Lisbon.places, clock: { Date() }).app
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let crew = try await client.crew("Dinner", admin: "ana", members: ["ben"])
            let started = try await client.object(
                .post,
                "/v1/decisions",
                token: crew.ana,
                body: ["groupId": crew.id, "method": "tiered", "swipe": ["vetoes": 1], "candidates": ["placeIds": Lisbon.places.map(\.id)]],
                expect: .created
            )
            let decision = try #require(started["id"] as? String)
            let ben = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ben)
            try await ben.events(1)
            let answers = { (veto: String) in
                ["answers": Lisbon.places.map { ["placeId": $0.id, "answer": $0.id == veto ? "veto" : "yes"] }]
            }
            _ = try await client.object(.put, "/v1/decisions/\(decision)/swipes", token: crew.ana, body: answers("lx-b-miradouro"))
            let swipe = try await ben.events(2)[1]
            #expect(swipe.name == "swipe", "one event for four answers")
            #expect((swipe.object["swiper"] as? [String: Any])?["username"] as? String == "ana")
            #expect(!swipe.data.contains("lx-b-miradouro\",\"answer") && !swipe.data.contains("\"veto\""), "\(swipe.data)")
            #expect(((swipe.object["decision"] as? [String: Any])?["swipe"] as? [String: Any])?["answered"] as? [String] == ["ana"])

            _ = try await client.object(.put, "/v1/decisions/\(decision)/swipes", token: crew.ben, body: answers("lx-d-jardim"))
            let events = try await ben.events(4)
            #expect(events.map(\.name) == ["snapshot", "swipe", "swipe", "roundEnded"])
            let round = ((events[3].object["decision"] as? [String: Any])?["roundResult"] as? [String: Any])
            #expect(round?["survivors"] as? [String] == ["lx-a-tasca", "lx-c-cantina"])
            #expect(Set(events.compactMap(\.id)).count == 4)
        }
    }

    @Test func aClientResumingAfterAnIdGetsWhatFollowedItWithNoGapAndNoRepeatThen204OnceItHeardTheEnd() async throws {
        try await Self.withDecision { client, port, crew, decision in
            let first = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ben)
            try await first.events(1)
            try await Self.vote(client, decision, crew.ana, ["lx-a-tasca"])
            let seen = try await first.events(2)
            first.close()
            // Ballots while Ben is away.
            try await Self.vote(client, decision, crew.cleo, ["lx-b-miradouro"])
            try await Self.vote(client, decision, crew.ana, ["lx-c-cantina"])
            let resumed = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ben, lastEventID: seen[1].id)
            let missed = try await resumed.events(2)
            #expect(missed.map(\.name) == ["ballot", "ballot"])
            #expect(missed.map { ($0.object["voter"] as? [String: Any])?["username"] as? String } == ["cleo", "ana"])
            // Then live again.
            try await Self.vote(client, decision, crew.ben, ["lx-d-jardim"])
            let all = try await resumed.events(4)
            #expect(all.map(\.name) == ["ballot", "ballot", "ballot", "ended"])
            try await resumed.closed()
            let ids = seen.compactMap(\.id) + all.compactMap(\.id)
            #expect(Set(ids).count == ids.count)

            // Having heard the end, a client is told there is nothing more (EventSource stops at 204), and a client
            // connecting afresh to an ended decision too.
            let again = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ben, lastEventID: all[3].id)
            #expect(try await again.status() == 204)
            let fresh = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ben)
            #expect(try await fresh.status() == 204)
            // An id from before the end that it never followed up: the end, at once.
            let late = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ben, lastEventID: all[2].id)
            #expect(try await late.events(1).map(\.name) == ["ended"])
            try await late.closed()
        }
    }

    @Test func anIdOfAnotherDatabaseGetsASnapshotAndAMalformedOneIs400() async throws {
        try await Self.withDecision { client, port, crew, decision in
            let other = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ben, lastEventID: "abcdef12-5-5")
            #expect(try await other.events(1).map(\.name) == ["snapshot"])
            other.close()
            var headers = HTTPFields()
            headers[HTTPFields.Element.Name("Last-Event-ID")!] = "not-an-id"
            let refused = try await client.json(.get, "/v1/decisions/\(decision)/events", token: crew.ben, headers: headers)
            #expect(refused.status == .badRequest)
            #expect(try TestApp.error(refused.body).code == "invalid_input")
            #expect(try TestApp.error(refused.body).field == "Last-Event-ID")
        }
    }

    @Test func onlyThoseWhoMayReadTheDecisionOpenItsStreamAndHeadOpensNone() async throws {
        // A client that left is noticed at the next keep-alive.
        try await Self.withDecision(live: LiveFeed.Settings(keepAlive: .milliseconds(100))) { client, port, crew, decision in
            #expect(try await client.error(.get, "/v1/decisions/\(decision)/events", token: crew.dan, expect: .forbidden).code == "forbidden")
            #expect(try await client.error(.get, "/v1/decisions/d-0000000000000000/events", token: crew.ben, expect: .notFound).code == "not_found")
            #expect(try await client.error(.get, "/v1/decisions/\(decision)/events", expect: .unauthorized).code == "unauthorized")
            // HEAD answers the stream's headers and holds nothing open: six of them leave all five streams free.
            for _ in 0..<6 {
                let head = try await client.json(.head, "/v1/decisions/\(decision)/events", token: crew.ben)
                #expect(head.status == .ok)
                #expect(head.headers[.contentType] == "text/event-stream")
                #expect(head.body.readableBytes == 0)
            }
            #expect(try await client.json(.head, "/v1/decisions/\(decision)/events", token: crew.dan).status == .forbidden)
            var streams: [EventStreamClient] = []
            for _ in 0..<5 {
                let stream = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ben)
                #expect(try await stream.status() == 200)
                streams.append(stream)
            }
            // The sixth, of either kind, is refused; closing one frees its place.
            let refused = try await client.json(.get, "/v1/notifications/events", token: crew.ben)
            #expect(refused.status == .tooManyRequests)
            #expect(try TestApp.error(refused.body).code == "too_many_streams")
            #expect(refused.headers[.retryAfter] != nil)
            // Others are not counted against Ben.
            let cleo = try await EventStreamClient.open(port: port, "/v1/notifications/events", token: crew.cleo)
            #expect(try await cleo.status() == 200)
            streams[0].close()
            var reopened: EventStreamClient?
            for _ in 0..<100 where reopened == nil {
                let attempt = try await EventStreamClient.open(port: port, "/v1/notifications/events", token: crew.ben)
                if try await attempt.status() == 200 { reopened = attempt } else { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(reopened != nil)
        }
    }

    @Test func aMemberRemovedFromTheGroupASessionSignedOutAndADeletedAccountEndTheirStreams() async throws {
        try await Self.withDecision { client, port, crew, decision in
            let ben = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ben)
            let cleo = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.cleo)
            let cleoNotes = try await EventStreamClient.open(port: port, "/v1/notifications/events", token: crew.cleo)
            let ana = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ana)
            for stream in [ben, cleo, cleoNotes, ana] { try await stream.events(1) }
            #expect(try await client.json(.delete, "/v1/groups/\(crew.id)/members/ben", token: crew.ana).status == .noContent)
            try await ben.closed()
            #expect(!ben.events.contains { $0.name == "ended" })
            #expect(try await client.json(.post, "/v1/auth/logout", token: crew.cleo).status == .noContent)
            try await cleo.closed()
            try await cleoNotes.closed()
            let danNotes = try await EventStreamClient.open(port: port, "/v1/notifications/events", token: crew.dan)
            try await danNotes.events(1)
            let deleted = try await client.json(.delete, "/v1/me", token: crew.dan, body: ["password": "correct horse battery"])
            #expect(deleted.status == .noContent)
            try await danNotes.closed()
            // Ana's stream is still open: a departure is an update of the decision to her.
            try await Self.vote(client, decision, crew.ana, ["lx-a-tasca"])
            let names = try await ana.events(3).map(\.name)
            #expect(names.contains("ballot"))
            #expect(!ana.isClosed)
        }
    }

    @Test func notificationsArriveOnTheirStream() async throws {
        try await Self.withDecision { client, port, crew, decision in
            let stream = try await EventStreamClient.open(port: port, "/v1/notifications/events", token: crew.ben)
            let snapshot = try await stream.events(1)[0]
            #expect(snapshot.name == "snapshot")
            #expect(snapshot.object["unreadCount"] as? Int != nil)
            try await Self.cancelAndStartAnother(client, crew, decision)
            let note = try await stream.events(2)[1]
            #expect(note.name == "notification")
            #expect(note.object["kind"] as? String == "decisionStarted")
            #expect(note.object["recipientId"] as? String != nil)
        }
    }

    @Test func keepAlivesComeAndAStreamEndsAfterItsLongestTime() async throws {
        let live = LiveFeed.Settings(keepAlive: .milliseconds(200), maxDuration: .seconds(2))
        try await Self.withDecision(live: live) { _, port, crew, decision in
            let stream = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ben)
            try await stream.comment()
            #expect(stream.comments.contains("keep-alive"))
            try await stream.closed()
            #expect(stream.events.map(\.name) == ["snapshot"])
        }
    }

    @Test func streamsStayOutOfTheRequestMetricsAndHaveTheirOwn() async throws {
        let metrics = PlacesMetrics()
        try await Self.withDecision(metrics: metrics) { client, port, crew, decision in
            let stream = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ben)
            try await stream.events(1)
            try await Self.vote(client, decision, crew.ana, ["lx-a-tasca"])
            try await stream.events(2)
            // The server counts an event once its write returned, which may be a moment after the client read it:
            // look until the count shows it (the guard, as the stream client's, is far above what that takes).
            var text = String(buffer: try await client.json(.get, "/metrics").body)
            let guardTime = ContinuousClock.now + .seconds(30)
            while !text.contains("places_stream_events_total 2"), ContinuousClock.now < guardTime {
                try await Task.sleep(for: .milliseconds(10))
                text = String(buffer: try await client.json(.get, "/metrics").body)
            }
            #expect(text.contains("places_streams_open 1"))
            #expect(text.contains("places_stream_events_total 2"), "the snapshot and the ballot")
            #expect(!text.contains("events\""), "a stream's route is in the request metrics")
        }
    }

    @Test func aClientThatDoesNotReadIsEndedWithoutHoldingOthersUp() async throws {
        // Few signals may wait for a client, and only the ballots bring them: no keep-alive comes within the test. A
        // keep-alive timer (every 20 ms, as this test had) filled the fast client's few places too whenever a busy
        // machine kept its stream from running for 80 ms, and ended it as too slow.
        let live = LiveFeed.Settings(keepAlive: .seconds(365 * 86_400), pending: 4)
        try await Self.withDecision(live: live) { client, port, crew, decision in
            let slow = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ben, receiveBuffer: 1024)
            let fast = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.cleo)
            try await fast.events(1)
            // Big events (about 900 bytes each), more than the sockets' and the channel's buffers hold (some 200 KB),
            // for a client that reads nothing. Each ballot waits until the fast client has heard the one before: each
            // is then a read of the feed of its own, one signal to every stream, so the fast stream never has more
            // than one waiting, however slowly it runs, while the slow one, stuck on its full socket, has one more
            // waiting after each ballot until it has more than it may and is ended.
            let rounds = 400
            for round in 0..<rounds {
                try await Self.vote(client, decision, crew.ana, round % 2 == 0 ? ["lx-a-tasca"] : ["lx-b-miradouro"])
                guard try await fast.events(round + 2).count >= round + 2 else { break }
            }
            let events = try await fast.events(rounds + 1)
            #expect(events.last?.name == "ballot")
            // The slow one was cut off; once it reads, it finds its connection ended.
            try await Task.sleep(for: .seconds(2))
            slow.startReading()
            try await slow.closed()
            #expect(slow.events.count < rounds + 1, "the slow client heard \(slow.events.count) events")
        }
    }

    @Test func gracefulShutdownEndsOpenStreams() async throws {
        // The test's end shuts the server down gracefully: it must not wait for the stream left open (which would hold
        // it for an hour, the stream's longest time). Timed from where the shutdown starts, the end of the test's body:
        // timed from the test's start, the set-up (sign-ups, a group, a decision) counted too, and took more than the
        // bound's minute on a busy machine.
        let shutdownStarted = Mutex<ContinuousClock.Instant?>(nil)
        try await Self.withDecision { _, port, crew, decision in
            let stream = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ben)
            try await stream.events(1)
            shutdownStarted.withLock { $0 = ContinuousClock.now }
        }
        let started = try #require(shutdownStarted.withLock { $0 })
        #expect(ContinuousClock.now - started < .seconds(60))
    }
}
