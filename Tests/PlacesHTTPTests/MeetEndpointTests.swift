import Foundation
import GeoIndex
import PlacesTestSupport
import Hummingbird
import HummingbirdTesting
import PlacesCore
import Testing

/// `GET /v1/places/meet`: the places within 20 miles of everyone, the fairest first, each with its distance from
/// each origin; bad origins named.
@Suite("Meet over HTTP")
struct MeetEndpointTests {
    @Test func theFairestPlaceComesFirstWithEachOriginsDistance() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            // One person at Jardim's corner, the other south-east of Miradouro: Tasca lies between them.
            let answer = try await client.object(.get, "/v1/places/meet?at=38.7150,-9.1470&at=38.7120,-9.1440&kind=restaurant", token: nil)
            #expect(answer["count"] as? Int == 2)
            #expect((answer["at"] as? [[String: Double]])?.map { [$0["lat"]!, $0["lon"]!] } == [[38.7150, -9.1470], [38.7120, -9.1440]])
            let places = try #require(answer["places"] as? [[String: Any]])
            #expect(places.map { $0["id"] as? String } == ["lx-a-tasca", "lx-c-cantina"])
            let first = try #require(places.first)
            let distances = try #require(first["distances"] as? [[String: Double]])
            #expect(distances.count == 2)
            let expected = [Coordinate(latitude: 38.7150, longitude: -9.1470), Coordinate(latitude: 38.7120, longitude: -9.1440)]
                .map { Geodesy.distanceMeters($0, Coordinate(latitude: 38.7130, longitude: -9.1450)) }
            #expect(distances.map { $0["meters"]! } == expected)
            #expect(first["distanceMeters"] as? Double == expected.max(), "the farthest origin's")

            // Far apart: nothing in common, an empty answer.
            let apart = try await client.object(.get, "/v1/places/meet?at=38.7150,-9.1470&at=41.15,-8.61", token: nil)
            #expect(apart["count"] as? Int == 0 && (apart["places"] as? [Any])?.isEmpty == true)

            // Origins out of range, too few or too many; a radius it does not take.
            let twentyOne = Array(repeating: "at=38.71,-9.14", count: 21).joined(separator: "&")
            for query in ["at=38.71,-9.14", twentyOne, "at=38.71,-9.14&at=95,0", "at=38.71,-9.14&at=lisbon"] {
                #expect(try await client.error(.get, "/v1/places/meet?\(query)", expect: .badRequest).field == "at", "\(query)")
            }
            #expect(try await client.error(.get, "/v1/places/meet?at=38.71,-9.14&at=38.72,-9.14&radius=5", expect: .badRequest).field == "radius")
            #expect(try await client.error(.get, "/v1/places/meet?at=38.71,-9.14&at=38.72,-9.14&limit=501", expect: .badRequest).field == "limit")
        }
    }
}

/// `respectNeeds` on a decision's nearby candidates: only places that serve every participant's needs and fit every
/// participant's budget; places without a price level stay.
@Suite("Candidates that respect everyone's needs")
struct RespectNeedsTests {
    static var places: [Place] {
        func place(_ id: String, lon: Double, tags: [String], price: Int?) -> Place {
            var place = TestPlaces.place(id, lat: 38.713, lon: lon, kind: .restaurant, name: id, city: "Lisbon", tags: tags)
            place.priceLevel = price
            return place
        }
        return [
            place("vegan-cheap", lon: -9.140, tags: ["vegan", "halal"], price: 1),
            place("vegan-dear", lon: -9.141, tags: ["vegan", "halal"], price: 4),
            place("halal-only", lon: -9.142, tags: ["halal"], price: 1),
            place("vegan-unpriced", lon: -9.143, tags: ["halal", "vegan", "views"], price: nil),
        ]
    }

    @Test func onlyPlacesForEveryonesNeedsAndBudgetAreCandidates() async throws {
        try await TestApp.withClient(Self.places) { client in
            let crew = try await client.crew("Picky", admin: "ana", members: ["ben"])
            _ = try await client.object(.patch, "/v1/me/settings", token: crew.ana, body: ["dietaryNeeds": ["halal"], "maxPrice": 3])
            _ = try await client.object(.patch, "/v1/me/settings", token: crew.ben, body: ["dietaryNeeds": ["vegan"]])
            func candidates(_ respect: Bool?) async throws -> [String] {
                var nearby: [String: Any] = ["lat": 38.713, "lon": -9.141, "radius": 1, "limit": 10]
                if let respect { nearby["respectNeeds"] = respect }
                let started = try await client.object(
                    .post, "/v1/decisions", token: crew.ana,
                    body: ["groupId": crew.id, "method": "tiered", "candidates": ["nearby": nearby]], expect: .created
                )
                return ((started["candidates"] as? [[String: Any]]) ?? []).compactMap { $0["placeId"] as? String }.sorted()
            }
            #expect(try await candidates(nil) == ["halal-only", "vegan-cheap", "vegan-dear", "vegan-unpriced"])
            #expect(try await candidates(false).count == 4)
            // Halal and vegan both, at most Ana's price level 3; the unpriced place stays.
            #expect(try await candidates(true) == ["vegan-cheap", "vegan-unpriced"])
            // Meet's candidates respect them the same way.
            let met = try await client.object(
                .post, "/v1/decisions", token: crew.ana,
                body: [
                    "groupId": crew.id, "method": "tiered",
                    "candidates": ["meet": ["at": [["lat": 38.70, "lon": -9.15], ["lat": 38.72, "lon": -9.13]], "respectNeeds": true]],
                ],
                expect: .created
            )
            #expect(((met["candidates"] as? [[String: Any]]) ?? []).compactMap { $0["placeId"] as? String } == ["vegan-cheap", "vegan-unpriced"])
            let bad = try await client.error(
                .post, "/v1/decisions", token: crew.ana,
                body: ["groupId": crew.id, "method": "tiered", "candidates": ["nearby": ["lat": 38.7, "lon": -9.1, "respectNeeds": "yes"]]],
                expect: .badRequest
            )
            #expect(bad.field == "candidates.nearby.respectNeeds")
        }
    }
}
