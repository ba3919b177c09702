import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import Synchronization
import Testing

/// A decision's conversation over HTTP: who talks, paging newest first, the text's rules, the end, the bound a minute,
/// the stream, and what an account's deletion and export do with messages.
@Suite("Decision conversations over HTTP")
struct ConversationTests {
    /// Ana starts a tiered decision among herself and Ben over Lisbon's places; Cyd is in the group but takes no part.
    static func start(_ client: any TestClientProtocol, _ crew: Crew) async throws -> String {
        let started = try await client.object(
            .post,
            "/v1/decisions",
            token: crew.ana,
            body: [
                "groupId": crew.id, "method": "tiered", "participants": ["ana", "ben"], "candidates": ["placeIds": Lisbon.places.map(\.id)],
            ],
            expect: .created
        )
        return try #require(started["id"] as? String)
    }

    @Test func participantsAndTheStarterTalkNewestFirstAndOthersSeeNothing() async throws {
        // A clock a second later at each reading: each message is newer than the one before.
        let ticks = Mutex(0)
        let clock: @Sendable () -> Date = { TestApp.now.addingTimeInterval(Double(ticks.withLock { $0 += 1; return $0 })) }
        let app = try await TestApp.togetherServices(Lisbon.places, clock: clock).app
        try await app.test(.router) { client in
            let crew = try await client.crew("Dinner", admin: "ana", members: ["ben", "cyd"], outsiders: ["dan"])
            let id = try await Self.start(client, crew)
            let messages = "/v1/decisions/\(id)/messages"

            let first = try await client.object(.post, messages, token: crew.ben, body: ["text": "  Tasca again? "], expect: .created)
            #expect(first["text"] as? String == "Tasca again?", "trimmed")
            #expect((first["author"] as? [String: Any])?["username"] as? String == "ben" && first["decisionId"] as? String == id)
            _ = try await client.object(.post, messages, token: crew.ana, body: ["text": "Cantina has a table at eight"], expect: .created)
            _ = try await client.object(.post, messages, token: crew.ben, body: ["text": "Fine by me 👍"], expect: .created)

            // Newest first, a page at a time.
            let page = try await client.object(.get, "\(messages)?limit=2", token: crew.ana)
            let items = try #require(page["items"] as? [[String: Any]])
            #expect(items.map { $0["text"] as? String } == ["Fine by me 👍", "Cantina has a table at eight"])
            let cursor = try #require(page["nextCursor"] as? String)
            let rest = try await client.object(.get, "\(messages)?limit=2&cursor=\(cursor)", token: crew.ben)
            #expect((rest["items"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Tasca again?"] && rest["nextCursor"] == nil)

            // A member of the group who takes no part, and a stranger, neither read nor post; an unknown decision is not found.
            #expect(try await client.error(.get, messages, token: crew.cyd, expect: .forbidden).code == "forbidden")
            #expect(try await client.error(.post, messages, token: crew.cyd, body: ["text": "me too"], expect: .forbidden).code == "forbidden")
            #expect(try await client.error(.get, messages, token: crew.dan, expect: .forbidden).code == "forbidden")
            #expect(try await client.error(.post, "/v1/decisions/d-none/messages", token: crew.ana, body: ["text": "hi"], expect: .notFound).code == "not_found")
            #expect(try await client.error(.get, messages, token: nil, expect: .unauthorized).code == "unauthorized")
            // Cyd's view of the decision holds no message.
            let cydView = String(buffer: try await client.json(.get, "/v1/decisions/\(id)", token: crew.cyd).body)
            #expect(!cydView.contains("Tasca again?"))

            // The text's rules: required, 1–500 characters, one line, nothing that hides text; unknown fields refused.
            for body: [String: Any] in [
                [:], ["text": "   "], ["text": String(repeating: "a", count: 501)], ["text": "two\nlines"], ["text": "hid\u{200B}den"], ["text": 5],
            ] {
                #expect(try await client.error(.post, messages, token: crew.ana, body: body, expect: .badRequest).field == "text", "\(body)")
            }
            #expect(try await client.error(.post, messages, token: crew.ana, body: ["text": "hi", "to": "ben"], expect: .badRequest).code == "invalid_input")
            _ = try await client.object(.post, messages, token: crew.ana, body: ["text": String(repeating: "é", count: 500)], expect: .created)

            // Once the decision ended, the conversation is read, not added to.
            _ = try await client.object(.post, "/v1/decisions/\(id)/cancel", token: crew.ana)
            #expect(try await client.error(.post, messages, token: crew.ben, body: ["text": "too late"], expect: .conflict).code == "conflict")
            #expect((try await client.object(.get, messages, token: crew.ben)["items"] as? [Any])?.count == 4)
        }
    }

    @Test func pastTheBoundOfAMinuteA429SaysTheSecondsToWait() async throws {
        let now = Mutex(TestApp.now)
        var limits = UsageLimits()
        limits.messagesPerMinute = 3
        let app = try await TestApp.togetherServices(Lisbon.places, clock: { now.withLock { $0 } }, limits: limits).app
        try await app.test(.router) { client in
            let crew = try await client.crew("Chatty", admin: "ana", members: ["ben"])
            let id = try await Self.start(client, crew)
            let messages = "/v1/decisions/\(id)/messages"
            for second in 0..<3 {
                now.withLock { $0 = TestApp.now.addingTimeInterval(Double(second * 10)) }
                _ = try await client.object(.post, messages, token: crew.ana, body: ["text": "message \(second)"], expect: .created)
            }
            let refused = try await client.json(.post, messages, token: crew.ana, body: ["text": "one more"])
            #expect(refused.status == .tooManyRequests)
            #expect(try TestApp.error(refused.body).code == "too_many_attempts")
            // The first of the three was 20 seconds ago: it leaves the minute in 40.
            #expect(refused.headers[.retryAfter] == "40")
            // Ben has his own bound; Ana may post again once the first left the minute.
            _ = try await client.object(.post, messages, token: crew.ben, body: ["text": "my turn"], expect: .created)
            now.withLock { $0 = TestApp.now.addingTimeInterval(60.5) }
            _ = try await client.object(.post, messages, token: crew.ana, body: ["text": "again"], expect: .created)
            #expect((try await client.object(.get, messages, token: crew.ben)["items"] as? [Any])?.count == 5)
        }
    }

    @Test func aMessageReachesTheStreamsOfThoseWhoTalkOnly() async throws {
        let app = try await TestApp.togetherServices(Lisbon.places, clock: { Date() }).app
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let crew = try await client.crew("Dinner", admin: "ana", members: ["ben", "cyd"])
            let id = try await Self.start(client, crew)
            let ben = try await EventStreamClient.open(port: port, "/v1/decisions/\(id)/events", token: crew.ben)
            let cyd = try await EventStreamClient.open(port: port, "/v1/decisions/\(id)/events", token: crew.cyd)
            try await ben.events(1)
            try await cyd.events(1)

            let posted = try await client.object(.post, "/v1/decisions/\(id)/messages", token: crew.ana, body: ["text": "Tasca?"], expect: .created)
            let heard = try await ben.events(2)[1]
            #expect(heard.name == "message")
            #expect(heard.object["id"] as? String == posted["id"] as? String && heard.object["text"] as? String == "Tasca?")
            #expect((heard.object["author"] as? [String: Any])?["username"] as? String == "ana")

            // Cyd hears the ballot after it, and never the message.
            _ = try await client.object(.put, "/v1/decisions/\(id)/ballot", token: crew.ana, body: ["ranking": ["lx-a-tasca"]])
            let cydHears = try await cyd.events(2)
            #expect(cydHears.map(\.name) == ["snapshot", "ballot"])
            #expect(!cydHears[1].data.contains("Tasca?"))
            #expect(try await ben.events(3)[2].name == "ballot")
            ben.close()
            cyd.close()
        }
    }

    @Test func messagesLeaveWithTheirAuthorsAccountAndAreInTheirExport() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let crew = try await client.crew("Dinner", admin: "ana", members: ["ben"])
            let id = try await Self.start(client, crew)
            let messages = "/v1/decisions/\(id)/messages"
            _ = try await client.object(.post, messages, token: crew.ben, body: ["text": "Ben was here"], expect: .created)
            _ = try await client.object(.post, messages, token: crew.ana, body: ["text": "Ana too"], expect: .created)

            let export = try await client.object(.get, "/v1/me/export", token: crew.ben)
            let mine = try #require(export["messages"] as? [[String: Any]])
            #expect(mine.map { $0["text"] as? String } == ["Ben was here"] && mine.first?["decisionId"] as? String == id)

            _ = try await client.object(.delete, "/v1/me", token: crew.ben, body: ["password": "correct horse battery"], expect: .noContent)
            let left = try await client.object(.get, messages, token: crew.ana)
            #expect((left["items"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Ana too"])
        }
    }
}
