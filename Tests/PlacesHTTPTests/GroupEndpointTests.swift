import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import Testing

@Suite("Friends, groups, collections and notifications over HTTP")
struct GroupEndpointTests {
    @Test func friendRequestsAreSentAcceptedDeclinedAndEnded() async throws {
        try await TestApp.withClient([]) { client in
            let ana = try await client.signUp("ana")
            let ben = try await client.signUp("ben")
            let cy = try await client.signUp("cyd")
            // Cy does not want to hear about friend requests.
            _ = try await client.object(.patch, "/v1/me/settings", token: cy, body: ["notifications": ["friendRequests": false]])

            let asked = try await client.object(.post, "/v1/friends/requests", token: ana, body: ["username": "BEN"], expect: .created)
            #expect(asked["status"] as? String == "pending")
            #expect(try await client.json(.post, "/v1/friends/requests", token: ana, body: ["username": "ben"]).status == .conflict)
            #expect(try await client.json(.post, "/v1/friends/requests", token: ana, body: ["username": "ana"]).status == .badRequest)
            let nobody = try await client.error(
                .post,
                "/v1/friends/requests",
                token: ana,
                body: ["username": "nobody"],
                expect: .unprocessableContent
            )
            #expect(nobody.code == "unknown_reference" && nobody.field == "username")
            let incoming = try await client.object(.get, "/v1/friends/requests", token: ben)
            #expect(((incoming["items"] as? [[String: Any]])?.first?["from"] as? [String: Any])?["username"] as? String == "ana")
            let notice = try #require(try await client.notifications(ben, kind: "friendRequest").first)
            #expect((notice["channels"] as? [String]) == ["push", "email"])

            let accepted = try await client.object(.post, "/v1/friends/requests/ana/accept", token: ben)
            #expect(accepted["status"] as? String == "friends")
            let friends = try await client.object(.get, "/v1/friends", token: ana)
            #expect(((friends["items"] as? [[String: Any]])?.first?["user"] as? [String: Any])?["username"] as? String == "ben")

            _ = try await client.object(.post, "/v1/friends/requests", token: ana, body: ["username": "cyd"], expect: .created)
            #expect(try await client.notifications(cy, kind: "friendRequest").isEmpty, "cy switched them off")
            #expect(try await client.json(.post, "/v1/friends/requests/ana/decline", token: cy).status == .noContent)
            #expect(try await client.json(.post, "/v1/friends/requests/ana/accept", token: cy).status == .notFound)

            #expect(try await client.json(.delete, "/v1/friends/ben", token: ana).status == .noContent)
            #expect((try await client.object(.get, "/v1/friends", token: ben)["items"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func groupsKeepAnAdminAndOnlyAdminsManage() async throws {
        try await TestApp.withClient([]) { client in
            let crew = try await client.crew("Crew", admin: "ana", members: ["ben"], outsiders: ["cyd"])

            #expect(
                try await client.json(.post, "/v1/groups/\(crew.id)/invitations", token: crew.ben, body: ["username": "cyd"]).status == .forbidden
            )
            #expect(try await client.json(.get, "/v1/groups/\(crew.id)", token: crew.cyd).status == .forbidden)
            _ = try await client.object(.post, "/v1/groups/\(crew.id)/invitations", token: crew.ana, body: ["username": "cyd"], expect: .created)
            #expect(
                try await client.json(.post, "/v1/groups/\(crew.id)/invitations", token: crew.ana, body: ["username": "cyd"]).status == .conflict
            )
            #expect(try await client.json(.post, "/v1/me/invitations/\(crew.id)/decline", token: crew.cyd).status == .noContent)
            #expect(try await client.json(.post, "/v1/me/invitations/\(crew.id)/accept", token: crew.cyd).status == .notFound)

            // The last admin names a successor to leave.
            let stuck = try await client.error(.post, "/v1/groups/\(crew.id)/leave", token: crew.ana, expect: .conflict)
            #expect(stuck.field == "successor")
            #expect(
                try await client.json(.put, "/v1/groups/\(crew.id)/members/ana/role", token: crew.ana, body: ["role": "member"]).status
                    == .conflict
            )
            #expect(try await client.json(.patch, "/v1/groups/\(crew.id)", token: crew.ben, body: ["name": "Mine"]).status == .forbidden)
            let renamed = try await client.object(
                .patch,
                "/v1/groups/\(crew.id)",
                token: crew.ana,
                body: ["name": "Crew 2", "pictureURL": "https://example.com/p.png"]
            )
            #expect(renamed["name"] as? String == "Crew 2")
            #expect(try await client.json(.patch, "/v1/groups/\(crew.id)", token: crew.ana, body: ["pictureURL": "ftp://x"]).status == .badRequest)
            #expect(try await client.json(.post, "/v1/groups/\(crew.id)/leave", token: crew.ana, body: ["successor": "ben"]).status == .noContent)
            let after = try await client.object(.get, "/v1/groups/\(crew.id)", token: crew.ben)
            let members = after["members"] as? [[String: Any]] ?? []
            #expect(members.count == 1 && members.first?["role"] as? String == "admin")
            #expect(try await client.json(.get, "/v1/groups/\(crew.id)", token: crew.ana).status == .forbidden)
            // The last member leaving ends the group.
            #expect(try await client.json(.post, "/v1/groups/\(crew.id)/leave", token: crew.ben).status == .noContent)
            #expect(try await client.json(.get, "/v1/groups/\(crew.id)", token: crew.ben).status == .notFound)
        }
    }

    @Test func collectionsKeepOrderShowDistanceAndFollowDeletion() async throws {
        let (app, _, places, _) = try await TestApp.togetherServices(Lisbon.places)
        try await app.test(.router) { client in
            let ana = try await client.signUp("ana")
            let ben = try await client.signUp("ben")
            let collection = try await client.object(.post, "/v1/collections", token: ana, body: ["name": "Views"], expect: .created)
            let id = try #require(collection["id"] as? String)
            #expect(collection["kind"] as? String == "personal")
            for place in ["lx-d-jardim", "lx-b-miradouro", "lx-a-tasca"] {
                _ = try await client.object(.post, "/v1/collections/\(id)/places", token: ana, body: ["placeId": place])
            }
            #expect(try await client.json(.post, "/v1/collections/\(id)/places", token: ana, body: ["placeId": "lx-a-tasca"]).status == .conflict)
            let nowhere = try await client.error(
                .post,
                "/v1/collections/\(id)/places",
                token: ana,
                body: ["placeId": "nowhere"],
                expect: .unprocessableContent
            )
            #expect(nowhere.code == "unknown_reference" && nowhere.field == "placeId")
            #expect(try await client.json(.get, "/v1/collections/\(id)", token: ben).status == .forbidden)
            #expect(try await client.json(.post, "/v1/collections/\(id)/places", token: ben, body: ["placeId": "lx-c-cantina"]).status == .forbidden)

            let reordered = try await client.object(.put, "/v1/collections/\(id)/order", token: ana, body: ["placeIds": ["lx-a-tasca", "lx-d-jardim", "lx-b-miradouro"]])
            #expect((reordered["places"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["lx-a-tasca", "lx-d-jardim", "lx-b-miradouro"])
            #expect(try await client.json(.put, "/v1/collections/\(id)/order", token: ana, body: ["placeIds": ["lx-a-tasca"]]).status == .badRequest)

            let withDistance = try await client.object(.get, "/v1/collections/\(id)?lat=38.7130&lon=-9.1450", token: ana)
            let first = try #require((withDistance["places"] as? [[String: Any]])?.first)
            #expect((first["distanceMeters"] as? Double ?? 1) < 0.01)

            // A deleted place leaves the collection and comes back when restored.
            try await places.delete(id: "lx-d-jardim", by: .operatorCLI)
            let without = try await client.object(.get, "/v1/collections/\(id)", token: ana)
            #expect((without["places"] as? [[String: Any]])?.count == 2)
            _ = try await places.restore(id: "lx-d-jardim", by: .operatorCLI)
            let back = try await client.object(.get, "/v1/collections/\(id)", token: ana)
            #expect((back["places"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["lx-a-tasca", "lx-d-jardim", "lx-b-miradouro"])

            #expect(try await client.json(.delete, "/v1/collections/\(id)/places/lx-a-tasca", token: ana).status == .noContent)
            #expect(try await client.json(.delete, "/v1/collections/\(id)", token: ben).status == .forbidden)
            #expect(try await client.json(.delete, "/v1/collections/\(id)", token: ana).status == .noContent)
        }
    }

    @Test func notificationsArePagedAndMarkedRead() async throws {
        try await TestApp.withClient([]) { client in
            let ana = try await client.signUp("ana")
            var askers: [String] = []
            for index in 0..<3 {
                let token = try await client.signUp("asker\(index)")
                askers.append(token)
                _ = try await client.object(.post, "/v1/friends/requests", token: token, body: ["username": "ana"], expect: .created)
            }
            let first = try await client.object(.get, "/v1/notifications?limit=2", token: ana)
            #expect((first["items"] as? [Any])?.count == 2)
            #expect(first["unreadCount"] as? Int == 3)
            let cursor = try #require(first["nextCursor"] as? String)
            let second = try await client.object(.get, "/v1/notifications?limit=2&cursor=\(cursor)", token: ana)
            #expect((second["items"] as? [Any])?.count == 1)
            let id = try #require(((first["items"] as? [[String: Any]])?.first)?["id"] as? String)
            #expect(try await client.json(.post, "/v1/notifications/\(id)/read", token: askers[0]).status == .notFound)
            #expect(try await client.json(.post, "/v1/notifications/\(id)/read", token: ana).status == .noContent)
            #expect(try await client.object(.get, "/v1/notifications", token: ana)["unreadCount"] as? Int == 2)
            #expect(try await client.object(.post, "/v1/notifications/read-all", token: ana)["marked"] as? Int == 2)
            #expect(try await client.object(.get, "/v1/notifications", token: ana)["unreadCount"] as? Int == 0)
        }
    }

    /// Every route of people together, tried without a token.
    @Test(arguments: [
        (HTTPRequest.Method.get, "/v1/friends"), (.post, "/v1/friends/requests"), (.delete, "/v1/friends/ben"),
        (.post, "/v1/groups"), (.get, "/v1/groups/g-1"), (.post, "/v1/groups/g-1/invitations"), (.post, "/v1/groups/g-1/leave"),
        (.get, "/v1/me/invitations"), (.post, "/v1/collections"), (.get, "/v1/collections/c-1"), (.put, "/v1/collections/c-1/order"),
        (.post, "/v1/decisions"), (.get, "/v1/decisions/d-1"), (.put, "/v1/decisions/d-1/ballot"), (.post, "/v1/decisions/d-1/close"),
        (.get, "/v1/decisions/d-1/recount"), (.get, "/v1/notifications"), (.post, "/v1/notifications/read-all"),
    ])
    func everyRouteNeedsAToken(method: HTTPRequest.Method, uri: String) async throws {
        try await TestApp.withClient([]) { client in
            let error = try await client.error(method, uri, body: method == .get ? nil : [:], expect: .unauthorized)
            #expect(error.code == "unauthorized")
        }
    }

    @Test func strangersAreForbiddenFromAGroupsDecision() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let crew = try await client.crew("Crew", admin: "ana", members: ["ben"], outsiders: ["eve"])
            let body: [String: Any] = ["groupId": crew.id, "method": "tiered", "candidates": ["placeIds": ["lx-a-tasca", "lx-c-cantina"]]]
            #expect(try await client.json(.post, "/v1/decisions", token: crew.eve, body: body).status == .forbidden)
            let id = try #require(try await client.object(.post, "/v1/decisions", token: crew.ana, body: body, expect: .created)["id"] as? String)
            #expect(try await client.json(.get, "/v1/decisions/\(id)", token: crew.eve).status == .forbidden)
            #expect(
                try await client.json(.put, "/v1/decisions/\(id)/ballot", token: crew.eve, body: ["ranking": ["lx-a-tasca"]]).status == .forbidden
            )
            #expect(try await client.json(.post, "/v1/decisions/\(id)/close", token: crew.ben).status == .forbidden)
            #expect(try await client.json(.post, "/v1/decisions/\(id)/cancel", token: crew.eve).status == .forbidden)
            #expect(try await client.json(.get, "/v1/decisions/\(id)/recount", token: crew.eve).status == .forbidden)
            // A decision without a group takes friends only.
            let alone: [String: Any] = ["method": "tiered", "participants": ["ana", "eve"], "candidates": ["placeIds": ["lx-a-tasca"]]]
            #expect(try await client.json(.post, "/v1/decisions", token: crew.ana, body: alone).status == .badRequest)
            // Bad candidates are clear errors.
            let far: [String: Any] = ["method": "tiered", "candidates": ["nearby": ["lat": 38.71, "lon": -9.14, "radius": 25]]]
            let refused = try await client.json(.post, "/v1/decisions", token: crew.ana, body: far)
            #expect(try TestApp.error(refused.body).field == "candidates.nearby.radius")
            let near: [String: Any] = ["method": "tiered", "candidates": ["nearby": ["lat": 38.7130, "lon": -9.1450, "radius": 1, "limit": 2, "kind": "restaurant"]]]
            let fromNearby = try await client.object(.post, "/v1/decisions", token: crew.ana, body: near, expect: .created)
            #expect((fromNearby["candidates"] as? [[String: Any]])?.compactMap { $0["placeId"] as? String } == ["lx-a-tasca", "lx-c-cantina"])
        }
    }
}
