import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import PlacesPostgres
import PlacesTestPostgres
import Synchronization
import Testing

/// Blocking and the status line over HTTP, on SQLite here and on PostgreSQL in `PostgresFlowTests`: every rule tried
/// as the person blocked, whose answers must be those a name that does not exist gets, byte for byte.
@Suite("Blocking and the status line over HTTP")
struct BlockingTests {
    @Test func everyBlockingRuleHoldsForThePersonBlocked() async throws {
        let clock = TestClock()
        try await TestApp.togetherServices(Lisbon.places, clock: clock.now).app.test(.router) { client in
            try await BlockingRules.everyRule(client, clock: clock)
        }
    }

    @Test func theStatusLineShowsToFriendsAndFellowMembersUntilItExpires() async throws {
        let clock = TestClock()
        try await TestApp.togetherServices(Lisbon.places, clock: clock.now).app.test(.router) { client in
            try await BlockingRules.statusLine(client, clock: clock)
        }
    }

    @Test func aBlockedAuthorsMessageNeverReachesTheBlockersStream() async throws {
        let app = try await TestApp.togetherServices(Lisbon.places, clock: { Date() }).app
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let crew = try await client.crew("Dinner", admin: "ana", members: ["ben", "dan"])
            let id = try await BlockingRules.decision(client, crew, by: crew.ben)
            _ = try await client.json(.put, "/v1/users/dan/block", token: crew.ana)
            let ana = try await EventStreamClient.open(port: port, "/v1/decisions/\(id)/events", token: crew.ana)
            try await ana.events(1)
            _ = try await client.object(.post, "/v1/decisions/\(id)/messages", token: crew.dan, body: ["text": "from dan"], expect: .created)
            _ = try await client.object(.post, "/v1/decisions/\(id)/messages", token: crew.ben, body: ["text": "from ben"], expect: .created)
            let heard = try await ana.events(2)[1]
            #expect(heard.name == "message" && heard.object["text"] as? String == "from ben", "dan's message is passed over")
            ana.close()
        }
    }
}

extension PostgresFlowTests {
    @Test func everyBlockingRuleHoldsForThePersonBlockedOnPostgreSQL() async throws {
        let clock = TestClock()
        try await Self.withClient(Lisbon.places, clock: clock.now) { client in try await BlockingRules.everyRule(client, clock: clock) }
    }

    @Test func theStatusLineShowsToFriendsAndFellowMembersUntilItExpiresOnPostgreSQL() async throws {
        let clock = TestClock()
        try await Self.withClient(Lisbon.places, clock: clock.now) { client in try await BlockingRules.statusLine(client, clock: clock) }
    }

    /// Runs `test` with a client of an application over a fresh PostgreSQL schema holding `places`, on `clock`.
    static func withClient(
        _ places: [Place],
        clock: @escaping @Sendable () -> Date,
        _ test: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let database = try await TestPostgres.database()
        do {
            try await database.places.seed(places)
            try await TestApp.postgres(database, clock: clock).test(.router, test)
        } catch {
            try? await PostgresStore(database: database).close()
            throw error
        }
        try await PostgresStore(database: database).close()
    }
}

/// A clock the test moves forward.
final class TestClock: Sendable {
    private let current = Mutex(TestApp.now)

    /// The time now.
    var now: @Sendable () -> Date { { self.current.withLock { $0 } } }

    /// Moves the clock `seconds` on.
    func advance(_ seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// The rules, written once for both engines.
enum BlockingRules {
    /// A name no one has, as long as "ana": her answers must be its answers with the name swapped.
    static let ghost = "zed"

    /// Status, content type and body of an answer, the way a client sees them.
    struct Answer: Equatable, CustomStringConvertible {
        var status: Int
        var contentType: String?
        var body: String
        var description: String { "\(status) \(contentType ?? "-") \(body)" }
    }

    static func answer(
        _ client: any TestClientProtocol,
        _ method: HTTPRequest.Method,
        _ uri: String,
        token: String,
        body: [String: Any]
    ) async throws -> Answer {
        let response = try await client.json(method, uri, token: token, body: body)
        return Answer(status: Int(response.status.code), contentType: response.headers[.contentType], body: String(buffer: response.body))
    }

    /// A tiered decision of the crew's group over Lisbon's places, started by `token` for every member it may name.
    static func decision(_ client: any TestClientProtocol, _ crew: Crew, by token: String) async throws -> String {
        let started = try await client.object(
            .post,
            "/v1/decisions",
            token: token,
            body: ["groupId": crew.id, "method": "tiered", "candidates": ["placeIds": Lisbon.places.map(\.id)]],
            expect: .created
        )
        return try #require(started["id"] as? String)
    }

    /// Ana blocks Dan, who was her friend, her fellow member of two groups and had invitations pending both ways; then
    /// everything Dan tries that names her answers as "zed" does, and what each sees of the other goes.
    static func everyRule(_ client: any TestClientProtocol, clock: TestClock) async throws {
        let crew = try await client.crew("Dinner", admin: "ana", members: ["ben", "dan"], outsiders: ["cyd"])
        let (ana, dan) = (crew.ana, crew.dan)
        // Dan's group, which Ana joined; a second one he invites her into; Ana's brunch she invites him into.
        let dans = try #require(try await client.object(.post, "/v1/groups", token: dan, body: ["name": "Dan's"], expect: .created)["id"] as? String)
        _ = try await client.object(.post, "/v1/groups/\(dans)/invitations", token: dan, body: ["username": "ana"], expect: .created)
        _ = try await client.object(.post, "/v1/me/invitations/\(dans)/accept", token: ana)
        let picnic = try #require(
            try await client.object(.post, "/v1/groups", token: dan, body: ["name": "Picnic"], expect: .created)["id"] as? String
        )
        _ = try await client.object(.post, "/v1/groups/\(picnic)/invitations", token: dan, body: ["username": "ana"], expect: .created)
        let brunch = try #require(
            try await client.object(.post, "/v1/groups", token: ana, body: ["name": "Brunch"], expect: .created)["id"] as? String
        )
        _ = try await client.object(.post, "/v1/groups/\(brunch)/invitations", token: ana, body: ["username": "dan"], expect: .created)
        _ = try await client.object(.post, "/v1/friends/requests", token: dan, body: ["username": "ana"], expect: .created)
        _ = try await client.object(.post, "/v1/friends/requests/dan/accept", token: ana)
        #expect(try await client.notifications(ana, kind: "friendRequest").count == 1)
        let unreadBefore = try await client.object(.get, "/v1/notifications?limit=100", token: ana)["unreadCount"] as? Int

        // Blocking: 204 however often, 404 for nobody, 400 for oneself.
        for _ in 0..<2 { #expect(try await client.json(.put, "/v1/users/dan/block", token: ana).status == .noContent) }
        #expect(try await client.error(.put, "/v1/users/\(ghost)/block", token: ana, expect: .notFound).code == "not_found")
        #expect(try await client.error(.put, "/v1/users/ana/block", token: ana, expect: .badRequest).code == "invalid_input")
        let blocked = try await client.object(.get, "/v1/me/blocked?limit=10", token: ana)["items"] as? [[String: Any]]
        #expect(blocked?.compactMap { ($0["user"] as? [String: Any])?["username"] as? String } == ["dan"])
        #expect(blocked?.first?["since"] as? String == "2027-01-15T08:00:00Z")

        // The friendship and the invitations between them ended; the groups they share stay, each seeing the other.
        #expect((try await client.object(.get, "/v1/friends", token: ana)["items"] as? [Any])?.isEmpty == true)
        #expect((try await client.object(.get, "/v1/me/invitations", token: ana)["items"] as? [Any])?.isEmpty == true)
        #expect((try await client.object(.get, "/v1/me/invitations", token: dan)["items"] as? [Any])?.isEmpty == true)
        for (group, token) in [(crew.id, dan), (dans, ana), (crew.id, ana)] {
            let members = try await client.object(.get, "/v1/groups/\(group)", token: token)["members"] as? [[String: Any]] ?? []
            let names = Set(members.compactMap { ($0["user"] as? [String: Any])?["username"] as? String })
            #expect(names.isSuperset(of: ["ana", "dan"]))
        }

        // Everything Dan tries that names Ana answers as a name no one has, byte for byte (the name swapped).
        let attempts: [(HTTPRequest.Method, String, (String) -> [String: Any])] = [
            (.post, "/v1/friends/requests", { ["username": $0] }),
            (.post, "/v1/groups/\(dans)/invitations", { ["username": $0] }),  // she is a member: not "already a member"
            (.post, "/v1/groups/\(picnic)/invitations", { ["username": $0] }),
            (.post, "/v1/decisions", { ["method": "tiered", "candidates": ["placeIds": ["lx-a-tasca"]], "participants": [$0]] }),
            (
                .post, "/v1/decisions",
                { ["groupId": crew.id, "method": "tiered", "candidates": ["placeIds": ["lx-a-tasca"]], "participants": ["ben", $0]] }
            ),
            (.post, "/v1/decisions", { ["groupId": dans, "method": "tiered", "candidates": ["placeIds": ["lx-a-tasca"]], "participants": [$0]] }),
        ]
        for (method, uri, body) in attempts {
            let asAna = try await answer(client, method, uri, token: dan, body: body("ana"))
            let asGhost = try await answer(client, method, uri, token: dan, body: body(ghost))
            #expect(asGhost.status == 422 && asGhost.body.contains("unknown_reference"), "\(uri): \(asGhost)")
            var swapped = asAna
            swapped.body = asAna.body.replacingOccurrences(of: "'ana'", with: "'\(ghost)'")
            #expect(swapped == asGhost, "\(method) \(uri) naming ana: \(asAna), naming nobody: \(asGhost)")
        }
        // Ana, who blocked him, is told so.
        #expect(try await client.error(.post, "/v1/friends/requests", token: ana, body: ["username": "dan"], expect: .conflict).field == "username")

        // Neither finds the other; others find both.
        func found(_ q: String, by token: String) async throws -> [String] {
            let page = try await client.object(.get, "/v1/users/search?q=\(q)", token: token)
            return (page["items"] as? [[String: Any]])?.compactMap { $0["username"] as? String } ?? []
        }
        #expect(try await found("ana", by: dan) == [])
        #expect(try await found("da", by: ana) == [])
        #expect(Set(try await found("a", by: crew.ben)).isSuperset(of: ["ana", "dan"]))

        // Dan's group decisions leave Ana out by default, and she hears nothing of them; Ben's keep both.
        let dansDecision = try await decision(client, crew, by: dan)
        let participants = try await client.object(.get, "/v1/decisions/\(dansDecision)", token: dan)["participants"] as? [[String: Any]]
        #expect(participants?.compactMap { ($0["user"] as? [String: Any])?["username"] as? String }.sorted() == ["ben", "dan"])
        #expect(try await client.notifications(ana, kind: "decisionStarted").isEmpty)
        #expect(try await client.notifications(crew.ben, kind: "decisionStarted").count == 1)

        // No notification about Dan reaches Ana while the block stands: his friend request and invitation are gone
        // from her list and her unread count.
        #expect(try await client.notifications(ana, kind: "friendRequest").isEmpty)
        let invitations = try await client.notifications(ana, kind: "groupInvitation")
        #expect(!invitations.contains { ($0["subject"] as? [String: Any])?["groupId"] as? String == picnic }, "dan's invitation")
        let unreadAfter = try await client.object(.get, "/v1/notifications?limit=100", token: ana)["unreadCount"] as? Int
        #expect(unreadBefore == 3 && unreadAfter == 0, "dan's friend request and his two invitations")

        // In a conversation both take part in, Ana does not see Dan's messages; Ben sees both; Dan sees Ana's.
        let bens = try await decision(client, crew, by: crew.ben)
        let messages = "/v1/decisions/\(bens)/messages"
        for (token, text) in [(dan, "dan here"), (ana, "ana here"), (dan, "dan again")] {
            clock.advance(1)
            _ = try await client.object(.post, messages, token: token, body: ["text": text], expect: .created)
        }
        func texts(_ token: String) async throws -> [String] {
            (try await client.object(.get, "\(messages)?limit=2", token: token)["items"] as? [[String: Any]])?.compactMap { $0["text"] as? String }
                ?? []
        }
        #expect(try await texts(ana) == ["ana here"])
        #expect(try await texts(crew.ben) == ["dan again", "ana here"])
        #expect(try await texts(dan) == ["dan again", "ana here"])

        // Unblocking: 204 however often; then Dan may ask again.
        for _ in 0..<2 { #expect(try await client.json(.delete, "/v1/users/dan/block", token: ana).status == .noContent) }
        #expect(try await client.error(.delete, "/v1/users/\(ghost)/block", token: ana, expect: .notFound).code == "not_found")
        #expect((try await client.object(.get, "/v1/me/blocked", token: ana)["items"] as? [Any])?.isEmpty == true)
        #expect(try await found("ana", by: dan) == ["ana"])
        _ = try await client.object(.post, "/v1/friends/requests", token: dan, body: ["username": "ana"], expect: .created)
        #expect(try await client.error(.get, "/v1/me/blocked", token: nil, expect: .unauthorized).code == "unauthorized")
    }

    /// Ana's status shows to Ben (a friend), Cyd (in her group) and herself, not to Eve (no relation) nor to Dan once
    /// either blocks the other; it goes when it expires or is cleared; its text follows the rules of a shown name.
    static func statusLine(_ client: any TestClientProtocol, clock: TestClock) async throws {
        let crew = try await client.crew("Dinner", admin: "ana", members: ["cyd", "dan"], outsiders: ["ben", "eve"])
        let ana = crew.ana
        _ = try await client.object(.post, "/v1/friends/requests", token: crew.ben, body: ["username": "ana"], expect: .created)
        _ = try await client.object(.post, "/v1/friends/requests/ben/accept", token: ana)

        let set = try await client.object(
            .put,
            "/v1/me/status",
            token: ana,
            body: ["text": "  Out for lunch ", "expiresAt": "2027-01-15T09:00:00Z"]
        )
        #expect(set["text"] as? String == "Out for lunch" && set["expiresAt"] as? String == "2027-01-15T09:00:00Z")
        #expect((try await client.object(.get, "/v1/me", token: ana)["status"] as? [String: Any])?["text"] as? String == "Out for lunch")

        /// Ana's status as `token` sees it on her in search, and in the group when they share it.
        func seen(by token: String) async throws -> String? {
            let found = try await client.object(.get, "/v1/users/search?q=ana", token: token)["items"] as? [[String: Any]]
            let status = (found?.first { $0["username"] as? String == "ana" }?["status"] as? [String: Any])?["text"] as? String
            let group = try await client.json(.get, "/v1/groups/\(crew.id)", token: token)
            if group.status == .ok {
                let members = try TestApp.object(group.body)["members"] as? [[String: Any]]
                let user = members?.first { ($0["user"] as? [String: Any])?["username"] as? String == "ana" }?["user"] as? [String: Any]
                #expect((user?["status"] as? [String: Any])?["text"] as? String == status, "the group shows what search shows")
            }
            return status
        }
        #expect(try await seen(by: crew.ben) == "Out for lunch")
        #expect(try await seen(by: crew.cyd) == "Out for lunch")
        #expect(try await seen(by: crew.dan) == "Out for lunch")
        #expect(try await seen(by: crew.eve) == nil)
        let friends = try await client.object(.get, "/v1/friends", token: crew.ben)["items"] as? [[String: Any]]
        #expect(((friends?.first?["user"] as? [String: Any])?["status"] as? [String: Any])?["text"] as? String == "Out for lunch")

        // A block either way hides it, in the group too.
        _ = try await client.json(.put, "/v1/users/ana/block", token: crew.dan)
        #expect(try await seen(by: crew.dan) == nil)
        _ = try await client.json(.delete, "/v1/users/ana/block", token: crew.dan)
        _ = try await client.json(.put, "/v1/users/dan/block", token: ana)
        #expect(try await seen(by: crew.dan) == nil)

        // It expires by the clock, and a cleared one is gone.
        clock.advance(3_600)
        #expect(try await seen(by: crew.cyd) == nil)
        #expect(try await client.object(.get, "/v1/me", token: ana)["status"] == nil)
        _ = try await client.object(.put, "/v1/me/status", token: ana, body: ["text": "Back"])
        #expect(try await seen(by: crew.cyd) == "Back")
        for _ in 0..<2 { #expect(try await client.json(.delete, "/v1/me/status", token: ana).status == .noContent) }
        #expect(try await seen(by: crew.cyd) == nil)

        // The text's rules: required, 1–80 characters, one line, nothing that hides or reorders text; a future expiry.
        for body: [String: Any] in [
            [:], ["text": "   "], ["text": String(repeating: "a", count: 81)], ["text": "two\nlines"], ["text": "evil\u{202E}txt"],
            ["text": "late", "expiresAt": "2027-01-15T08:00:00Z"], ["text": "odd", "expiresAt": "soon"], ["text": "x", "mood": "happy"],
        ] {
            #expect(try await client.error(.put, "/v1/me/status", token: ana, body: body, expect: .badRequest).code == "invalid_input", "\(body)")
        }
        #expect(try await client.object(.put, "/v1/me/status", token: ana, body: ["text": String(repeating: "é", count: 80)])["text"] != nil)
        #expect(try await client.error(.put, "/v1/me/status", token: nil, body: ["text": "hi"], expect: .unauthorized).code == "unauthorized")
    }
}
