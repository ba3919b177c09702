import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import Synchronization
import Testing

@Suite("Lists are paged, and what one account makes is bounded")
struct BoundedListsTests {
    /// Every item of a paged list, following `nextCursor` with `limit` items a page; also returns how many pages.
    static func walk(_ client: some TestClientProtocol, _ path: String, token: String, limit: Int) async throws -> (items: [[String: Any]], pages: Int) {
        var items: [[String: Any]] = []
        var pages = 0
        var cursor: String?
        repeat {
            let separator = path.contains("?") ? "&" : "?"
            let uri = "\(path)\(separator)limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? "")
            let page = try await client.object(.get, uri, token: token)
            let pageItems = page["items"] as? [[String: Any]] ?? []
            #expect(pageItems.count <= limit)
            items += pageItems
            cursor = page["nextCursor"] as? String
            pages += 1
        } while cursor != nil && pages < 100
        return (items, pages)
    }

    @Test func collectionsGroupsInvitationsDecisionsAndFriendsArePaged() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let ana = try await client.signUp("ana")
            let ben = try await client.signUp("ben")
            for index in 0..<5 {
                _ = try await client.object(.post, "/v1/collections", token: ana, body: ["name": "List \(index)"], expect: .created)
                let group = try await client.object(.post, "/v1/groups", token: ana, body: ["name": "Group \(index)"], expect: .created)
                let groupID = try #require(group["id"] as? String)
                _ = try await client.object(.post, "/v1/groups/\(groupID)/invitations", token: ana, body: ["username": "ben"], expect: .created)
                _ = try await client.object(
                    .post,
                    "/v1/decisions",
                    token: ana,
                    body: ["groupId": groupID, "method": "tiered", "candidates": ["placeIds": ["lx-a-tasca", "lx-b-miradouro"]]],
                    expect: .created
                )
            }
            for name in ["cyd", "dee", "eve"] {
                let token = try await client.signUp(name)
                _ = try await client.object(.post, "/v1/friends/requests", token: token, body: ["username": "ana"], expect: .created)
            }
            let collections = try await Self.walk(client, "/v1/collections", token: ana, limit: 2)
            #expect(collections.items.compactMap { $0["name"] as? String } == (0..<5).map { "List \($0)" })
            #expect(collections.pages == 3)
            let groups = try await Self.walk(client, "/v1/groups", token: ana, limit: 2)
            #expect(groups.items.compactMap { $0["name"] as? String } == (0..<5).map { "Group \($0)" })
            let invitations = try await Self.walk(client, "/v1/me/invitations", token: ben, limit: 2)
            #expect(Set(invitations.items.compactMap { $0["groupName"] as? String }) == Set((0..<5).map { "Group \($0)" }))
            #expect(invitations.items.count == 5)
            let decisions = try await Self.walk(client, "/v1/decisions", token: ana, limit: 2)
            #expect(Set(decisions.items.compactMap { $0["id"] as? String }).count == 5)
            let requests = try await Self.walk(client, "/v1/friends/requests?direction=incoming", token: ana, limit: 2)
            #expect(requests.items.count == 3)
            for name in ["cyd", "dee", "eve"] {
                _ = try await client.object(.post, "/v1/friends/requests/\(name)/accept", token: ana)
            }
            let friends = try await Self.walk(client, "/v1/friends", token: ana, limit: 2)
            #expect(friends.items.compactMap { ($0["user"] as? [String: Any])?["username"] as? String } == ["cyd", "dee", "eve"])
            // A page may hold up to 100; a bad limit or cursor is a clear error.
            #expect(try await client.json(.get, "/v1/decisions?limit=101", token: ana).status == .badRequest)
            #expect(try await client.json(.get, "/v1/groups?cursor=nonsense", token: ana).status == .badRequest)
        }
    }

    @Test func aCursorKeepsItsPlaceWhenItemsComeAndGoBetweenPages() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let ana = try await client.signUp("ana")
            var ids: [String: String] = [:]
            for name in ["B", "C", "D", "E", "F"] {
                let group = try await client.object(.post, "/v1/groups", token: ana, body: ["name": name], expect: .created)
                ids[name] = try #require(group["id"] as? String)
            }
            let first = try await client.object(.get, "/v1/groups?limit=2", token: ana)
            #expect((first["items"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["B", "C"])
            let cursor = try #require(first["nextCursor"] as? String)
            // A group that sorts first is made and one already shown is deleted: an offset would now show C again or
            // skip D; the cursor goes on after C.
            _ = try await client.object(.post, "/v1/groups", token: ana, body: ["name": "A"], expect: .created)
            _ = try await client.json(.delete, "/v1/groups/\(try #require(ids["B"]))", token: ana)
            let second = try await client.object(.get, "/v1/groups?limit=2&cursor=\(cursor)", token: ana)
            #expect((second["items"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["D", "E"])
            // A cursor of one list means nothing to another.
            #expect(try await client.json(.get, "/v1/decisions?cursor=\(cursor)", token: ana).status == .badRequest)
        }
    }

    @Test func whatOneAccountMakesIsBounded() async throws {
        let now = Mutex(TestApp.now)
        let limits = UsageLimits(
            groupsPerPerson: 2,
            collectionsPerOwner: 2,
            activeDecisionsPerPerson: 2,
            placesPerDay: 3,
            pendingInvitationsSent: 2,
            pendingFriendRequestsSent: 2
        )
        let app = try await TestApp.togetherServices(Lisbon.places, clock: { now.withLock { $0 } }, limits: limits).app
        try await app.test(.router) { client in
            let ana = try await client.signUp("ana")
            for name in ["ben", "cyd", "dee"] { _ = try await client.signUp(name) }
            func refused(_ method: HTTPRequest.Method, _ path: String, _ body: [String: Any], _ code: String) async throws {
                let error = try await client.error(
                    method,
                    path,
                    token: ana,
                    body: body,
                    expect: code == "limit_reached" ? .conflict : .tooManyRequests
                )
                #expect(error.code == code, "\(path)")
            }
            // Groups (made or joined).
            var groupIDs: [String] = []
            for index in 0..<2 {
                let group = try await client.object(.post, "/v1/groups", token: ana, body: ["name": "G\(index)"], expect: .created)
                groupIDs.append(try #require(group["id"] as? String))
            }
            try await refused(.post, "/v1/groups", ["name": "G2"], "limit_reached")
            // Pending invitations sent.
            for name in ["ben", "cyd"] {
                _ = try await client.object(.post, "/v1/groups/\(groupIDs[0])/invitations", token: ana, body: ["username": name], expect: .created)
            }
            try await refused(.post, "/v1/groups/\(groupIDs[0])/invitations", ["username": "dee"], "limit_reached")
            // Pending friend requests sent.
            for name in ["ben", "cyd"] {
                _ = try await client.object(.post, "/v1/friends/requests", token: ana, body: ["username": name], expect: .created)
            }
            try await refused(.post, "/v1/friends/requests", ["username": "dee"], "limit_reached")
            // Personal collections, and a group's.
            for index in 0..<2 {
                _ = try await client.object(.post, "/v1/collections", token: ana, body: ["name": "C\(index)"], expect: .created)
            }
            try await refused(.post, "/v1/collections", ["name": "C2"], "limit_reached")
            _ = try await client.object(.post, "/v1/collections", token: ana, body: ["name": "Shared", "groupId": groupIDs[1]], expect: .created)
            // Open decisions started.
            let candidates = ["placeIds": ["lx-a-tasca", "lx-b-miradouro"]]
            var decisionIDs: [String] = []
            for _ in 0..<2 {
                let started = try await client.object(.post, "/v1/decisions", token: ana, body: ["method": "tiered", "candidates": candidates], expect: .created)
                decisionIDs.append(try #require(started["id"] as? String))
            }
            try await refused(.post, "/v1/decisions", ["method": "tiered", "candidates": candidates], "limit_reached")
            // An ended decision no longer counts.
            _ = try await client.object(.post, "/v1/decisions/\(decisionIDs[0])/cancel", token: ana)
            _ = try await client.object(.post, "/v1/decisions", token: ana, body: ["method": "tiered", "candidates": candidates], expect: .created)
            // Places a day: the fourth within 24 hours waits until the first is a day old.
            for index in 0..<3 {
                let body: [String: Any] = ["name": "Spot \(index)", "lat": 10 + Double(index), "lon": 10]
                _ = try await client.object(.post, "/v1/places", token: ana, body: body, expect: .created)
                now.withLock { $0 = $0.addingTimeInterval(60) }
            }
            let fourth = try await client.json(.post, "/v1/places", token: ana, body: ["name": "Spot 3", "lat": 20, "lon": 10])
            #expect(fourth.status == .tooManyRequests)
            #expect(try TestApp.error(fourth.body).code == "too_many_attempts")
            #expect(fourth.headers[.retryAfter] == String(24 * 60 * 60 - 180))
            // A duplicate is refused for the limit first, as a new place would be.
            let duplicate = try await client.json(.post, "/v1/places", token: ana, body: ["name": "Spot 0", "lat": 10, "lon": 10])
            #expect(duplicate.status == .tooManyRequests)
            now.withLock { $0 = $0.addingTimeInterval(24 * 60 * 60) }
            _ = try await client.object(.post, "/v1/places", token: ana, body: ["name": "Spot 3", "lat": 20, "lon": 10], expect: .created)
        }
    }

    @Test func askingAgainSoonAfterADeclineDoesNotNotifyAgain() async throws {
        let now = Mutex(TestApp.now)
        let week: TimeInterval = 7 * 24 * 60 * 60
        let app = try await TestApp.togetherServices([], clock: { now.withLock { $0 } }, limits: UsageLimits(quietAfterDecline: week)).app
        try await app.test(.router) { client in
            let ana = try await client.signUp("ana")
            let ben = try await client.signUp("ben")
            let group = try await client.object(.post, "/v1/groups", token: ana, body: ["name": "Crew"], expect: .created)
            let groupID = try #require(group["id"] as? String)
            for _ in 0..<3 {
                _ = try await client.object(.post, "/v1/friends/requests", token: ana, body: ["username": "ben"], expect: .created)
                #expect(try await client.json(.post, "/v1/friends/requests/ana/decline", token: ben).status == .noContent)
                _ = try await client.object(.post, "/v1/groups/\(groupID)/invitations", token: ana, body: ["username": "ben"], expect: .created)
                #expect(try await client.json(.post, "/v1/me/invitations/\(groupID)/decline", token: ben).status == .noContent)
            }
            #expect(try await client.notifications(ben, kind: "friendRequest").count == 1)
            #expect(try await client.notifications(ben, kind: "groupInvitation").count == 1)
            // The request and the invitation are still made: Ben sees them if he looks.
            _ = try await client.object(.post, "/v1/friends/requests", token: ana, body: ["username": "ben"], expect: .created)
            let incoming = try await client.object(.get, "/v1/friends/requests?direction=incoming", token: ben)
            #expect((incoming["items"] as? [Any])?.count == 1)
            _ = try await client.json(.post, "/v1/friends/requests/ana/decline", token: ben)
            // After the quiet time, asking notifies again.
            now.withLock { $0 = $0.addingTimeInterval(week + 1) }
            _ = try await client.object(.post, "/v1/friends/requests", token: ana, body: ["username": "ben"], expect: .created)
            _ = try await client.object(.post, "/v1/groups/\(groupID)/invitations", token: ana, body: ["username": "ben"], expect: .created)
            #expect(try await client.notifications(ben, kind: "friendRequest").count == 2)
            #expect(try await client.notifications(ben, kind: "groupInvitation").count == 2)
        }
    }
}
