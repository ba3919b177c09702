import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import PlacesHTTP
import Testing

/// Answers a client can rely on: 404 is for what the address names (a name in the body that matches nothing is 422),
/// and a blank filter or successor is refused rather than read as absent.
@Suite("Answers a client can rely on")
struct ReliableAnswerTests {
    @Test func aNameInTheBodyThatMatchesNothingIs422AndTheAddressedResourceStays404() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let crew = try await client.crew("Friday crew", admin: "ana", members: ["ben"])
            let refusals: [(HTTPRequest.Method, String, [String: Any], String)] = [
                (.post, "/v1/collections", ["name": "Dinner", "groupId": "g-nowhere"], "groupId"),
                (.post, "/v1/decisions", ["method": "random", "groupId": "g-nowhere", "candidates": ["placeIds": ["lx-a-tasca"]]], "groupId"),
                (
                    .post, "/v1/decisions", ["method": "random", "participants": ["nobody"], "candidates": ["placeIds": ["lx-a-tasca"]]],
                    "participants"
                ),
                (.post, "/v1/decisions", ["method": "random", "candidates": ["placeIds": ["lx-a-tasca", "lx-gone"]]], "candidates.placeIds"),
                (.post, "/v1/decisions", ["method": "random", "candidates": ["collectionId": "c-nowhere"]], "candidates.collectionId"),
                (.post, "/v1/groups/\(crew.id)/invitations", ["username": "nobody"], "username"),
                (.post, "/v1/friends/requests", ["username": "nobody"], "username"),
                (.post, "/v1/groups/\(crew.id)/leave", ["successor": "nobody"], "successor"),
            ]
            for (method, uri, body, field) in refusals {
                let error = try await client.error(method, uri, token: crew.ana, body: body, expect: .unprocessableContent)
                #expect(error.code == "unknown_reference" && error.field == field, "\(uri) \(body)")
            }
            let collection = try await client.object(.post, "/v1/collections", token: crew.ana, body: ["name": "Dinner"], expect: .created)
            let collectionID = try #require(collection["id"] as? String)
            let place = try await client.error(
                .post,
                "/v1/collections/\(collectionID)/places",
                token: crew.ana,
                body: ["placeId": "lx-gone"],
                expect: .unprocessableContent
            )
            #expect(place.code == "unknown_reference" && place.field == "placeId")
            // The resource the address names, a username in the path included, is still 404.
            let addressed: [(HTTPRequest.Method, String, [String: Any]?)] = [
                (.post, "/v1/collections/c-nowhere/places", ["placeId": "lx-a-tasca"]),
                (.post, "/v1/groups/g-nowhere/leave", nil),
                (.post, "/v1/friends/requests/nobody/accept", nil),
                (.delete, "/v1/groups/\(crew.id)/members/nobody", nil),
                (.delete, "/v1/places/lx-gone/rating", nil),
            ]
            for (method, uri, body) in addressed {
                let error = try await client.error(method, uri, token: crew.ana, body: body, expect: .notFound)
                #expect(error.code == "not_found", "\(uri)")
            }
            // Nobody left: ben is still in the group.
            let group = try await client.object(.get, "/v1/groups/\(crew.id)", token: crew.ben)
            #expect((group["members"] as? [Any])?.count == 2)
        }
    }

    @Test func aBlankNearbyFilterOrSuccessorIsRefused() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let crew = try await client.crew("Friday crew", admin: "ana", members: ["ben"])
            for (name, value) in [("kind", ""), ("kind", "  "), ("cuisine", "")] {
                let body: [String: Any] = ["method": "random", "candidates": ["nearby": ["lat": 38.713, "lon": -9.145, name: value]]]
                let error = try await client.error(.post, "/v1/decisions", token: crew.ana, body: body, expect: .badRequest)
                #expect(error.code == "invalid_input" && error.field == "candidates.nearby.\(name)", "\(name): '\(value)'")
            }
            let filtered: [String: Any] = ["method": "random", "candidates": ["nearby": ["lat": 38.713, "lon": -9.145, "kind": "gem"]]]
            _ = try await client.object(.post, "/v1/decisions", token: crew.ana, body: filtered, expect: .created)

            let blank = try await client.error(.post, "/v1/groups/\(crew.id)/leave", token: crew.ben, body: ["successor": ""], expect: .badRequest)
            #expect(blank.code == "invalid_input" && blank.field == "successor")
            #expect(try await client.json(.post, "/v1/groups/\(crew.id)/leave", token: crew.ben, body: ["successor": NSNull()]).status == .noContent)
        }
    }
}
