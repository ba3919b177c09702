import Foundation
import GeoIndex
import Hummingbird
import HummingbirdTesting
import PlacesCore
import PlacesTestSupport
import Testing

/// Candidates fair to everyone's location (`candidates.meet`), open at the visit time (`visitAt`), and saved locations
/// that no other participant can read back.
@Suite("Candidates from meet, at a visit time")
struct MeetCandidatesTests {
    /// Friday 15 January 2027, 19:30 in Lisbon (UTC in winter): `TestApp.now` is that morning.
    static let fridayEvening = "2027-01-15T19:30:00+00:00"

    /// Around Bairro Alto: one place open on Friday evenings, one open at lunch only, one without hours.
    static var places: [Place] {
        func restaurant(_ id: String, _ lat: Double, _ lon: Double, hours: [String: [String]]?) throws -> Place {
            var place = TestApp.place(id, lat, lon, kind: .restaurant, name: id)
            place.openingHours = try hours.map { try OpeningHours.parse($0) }
            place.timeZone = hours == nil ? nil : "Europe/Lisbon"
            return place
        }
        return [
            try! restaurant("open-late", 38.7130, -9.1450, hours: ["fri": ["18:00-23:30"]]),
            try! restaurant("lunch-only", 38.7135, -9.1455, hours: ["fri": ["11:00-15:00"]]),
            try! restaurant("no-hours", 38.7140, -9.1460, hours: nil),
            TestApp.place("far-away", 41.15, -8.61, kind: .restaurant, name: "far-away"),
        ]
    }

    /// Where each of the crew saved their default location; Cyd shares hers with nobody.
    static let saved = ["ana": (38.7101234, -9.1401234), "ben": (38.7205678, -9.1505678), "cyd": (38.7159012, -9.1459012)]

    @Test func meetFromTheParticipantsUsesTheirSnappedLocationsAndNamesWhoIsLeftOut() async throws {
        try await TestApp.withClient(Self.places) { client in try await Self.meetFromTheParticipants(client) }
    }

    /// Meet from the participants' saved locations, read back by each of them (on either engine).
    static func meetFromTheParticipants(_ client: any TestClientProtocol) async throws {
        do {
            let crew = try await client.crew("Meet", admin: "ana", members: ["ben", "cyd"])
            for (name, location) in Self.saved {
                let settings: [String: Any] = ["defaultLocation": ["lat": location.0, "lon": location.1], "shareLocationForMeet": name != "cyd"]
                _ = try await client.object(.patch, "/v1/me/settings", token: crew.token(name), body: settings)
            }
            let started = try await client.object(
                .post, "/v1/decisions", token: crew.ana,
                body: [
                    "groupId": crew.id, "method": "tiered", "visitAt": Self.fridayEvening,
                    "candidates": ["meet": ["fromParticipants": true, "kind": "restaurant"]],
                ],
                expect: .created
            )
            // The candidates are meet's from the two shared locations, each at the centre of its 1 km cell, open then.
            let snapped = ["ana", "ben"].map { name in
                let location = Self.saved[name]!
                return MeetGrid.snapped(Coordinate(latitude: location.0, longitude: location.1))
            }
            let at = snapped.map { "at=\($0.latitude),\($0.longitude)" }.joined(separator: "&")
            let meet = try await client.object(.get, "/v1/places/meet?\(at)&kind=restaurant&openAt=2027-01-15T19:30:00Z", token: nil)
            let expected = ((meet["places"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }.sorted()
            #expect(expected == ["no-hours", "open-late"])
            let candidates = try #require(started["candidates"] as? [[String: Any]])
            #expect(candidates.compactMap { $0["placeId"] as? String } == expected)
            #expect(candidates.map { $0["openStatus"] as? String } == ["unknown", "open"])
            #expect(started["meetWithout"] as? [String] == ["cyd"])
            #expect(started["visitAt"] as? String == "2027-01-15T19:30:00Z")
            #expect(started["visitDate"] == nil)

            // Nobody else's saved location, snapped or not, nor a distance from it, is in anything another person reads.
            let id = try #require(started["id"] as? String)
            for reader in ["ana", "ben", "cyd"] {
                var answers: [String] = []
                for uri in ["/v1/decisions/\(id)", "/v1/decisions", "/v1/notifications", "/v1/groups/\(crew.id)"]
                    + ["ana", "ben", "cyd"].map({ "/v1/users/search?q=\($0)" })
                {
                    let response = try await client.json(.get, uri, token: crew.token(reader))
                    #expect(response.status == .ok, "\(uri)")
                    answers.append(String(buffer: response.body))
                }
                for other in Self.saved.keys where other != reader {
                    let location = Self.saved[other]!
                    let cell = MeetGrid.snapped(Coordinate(latitude: location.0, longitude: location.1))
                    for number in [location.0, location.1, cell.latitude, cell.longitude] {
                        let shown = String(format: "%.3f", number).dropLast()  // 38.71, -9.14: any rendering at 2 decimals or more
                        for answer in answers {
                            #expect(!answer.contains(shown), "\(reader) reads \(other)'s location in \(answer.prefix(200))")
                        }
                    }
                }
                for answer in answers where answer.contains(id) {
                    #expect(!answer.contains("distance"), "a decision shows no distance")
                }
            }
        }
    }

    @Test func meetRefusesWhatItCannotUse() async throws {
        try await TestApp.withClient(Self.places) { client in
            let crew = try await client.crew("Few", admin: "ana", members: ["ben"])
            _ = try await client.object(
                .patch, "/v1/me/settings", token: crew.ana, body: ["defaultLocation": ["lat": 38.71, "lon": -9.14], "shareLocationForMeet": true]
            )
            // Ben saved a location but shares it with nobody: one location is not a meet.
            _ = try await client.object(.patch, "/v1/me/settings", token: crew.ben, body: ["defaultLocation": ["lat": 38.72, "lon": -9.15]])
            func start(_ meet: [String: Any], extra: [String: Any] = [:], expect status: HTTPResponse.Status) async throws -> String? {
                var body: [String: Any] = ["groupId": crew.id, "method": "tiered", "candidates": ["meet": meet]]
                body.merge(extra) { _, new in new }
                return try await client.error(.post, "/v1/decisions", token: crew.ana, body: body, expect: status).field
            }
            #expect(try await start(["fromParticipants": true], expect: .conflict) == "candidates.meet")
            let two: [[String: Any]] = [["lat": 38.713, "lon": -9.145], ["lat": 38.714, "lon": -9.146]]
            #expect(try await start(["fromParticipants": true, "at": two], expect: .badRequest) == "candidates.meet")
            #expect(try await start([:], expect: .badRequest) == "candidates.meet")
            #expect(try await start(["at": [["lat": 38.713, "lon": -9.145]]], expect: .badRequest) == "candidates.meet.at")
            #expect(try await start(["at": [["lat": 38.713, "lon": -9.145], ["lat": 95, "lon": 0]]], expect: .badRequest) == "candidates.meet.at")
            #expect(try await start(["at": [["lat": 38.713], ["lat": 38.714, "lon": -9.146]]], expect: .badRequest) == "candidates.meet.at")
            #expect(try await start(["at": two, "limit": 101], expect: .badRequest) == "candidates.meet.limit")
            #expect(try await start(["at": two, "radius": 5], expect: .badRequest) == "candidates.meet.radius")
            #expect(try await start(["at": two, "kind": ""], expect: .badRequest) == "candidates.meet.kind")
            // Far apart, nothing in common: no candidates.
            #expect(try await start(["at": [["lat": 38.713, "lon": -9.145], ["lat": 41.15, "lon": -8.61]]], expect: .badRequest) == "candidates")
            // The visit time: with a visit day too, in the past, or not a time.
            #expect(try await start(["at": two], extra: ["visitAt": Self.fridayEvening, "visitDate": "2027-01-15"], expect: .badRequest) == "visitAt")
            #expect(try await start(["at": two], extra: ["visitAt": "2027-01-14T19:30:00Z"], expect: .badRequest) == "visitAt")
            #expect(try await start(["at": two], extra: ["visitAt": "Friday at eight"], expect: .badRequest) == "visitAt")
        }
    }

    /// Nearby's candidates are open at the visit time too; the result says whether the winner is open then, and a
    /// recount agrees after the winner's hours changed.
    @Test func theResultSaysWhetherTheWinnerIsOpenAndARecountLeavesThatOut() async throws {
        try await TestApp.withClient(Self.places) { client in try await Self.visitTimes(client) }
    }

    /// Candidates open at the visit time, and the winner's opening in the result (on either engine).
    static func visitTimes(_ client: any TestClientProtocol) async throws {
        do {
            let ana = try await client.signUp("ana")
            let nearby = try await client.object(
                .post, "/v1/decisions", token: ana,
                body: [
                    "method": "tiered", "visitAt": Self.fridayEvening,
                    "candidates": ["nearby": ["lat": 38.7130, "lon": -9.1450, "radius": 1, "kind": "restaurant"]],
                ],
                expect: .created
            )
            #expect((nearby["candidates"] as? [[String: Any]])?.compactMap { $0["placeId"] as? String } == ["no-hours", "open-late"])

            // A place of Ana's own, open on Friday evenings, drawn at once.
            let added = try await client.object(
                .post, "/v1/places", token: ana,
                body: [
                    "name": "Ana's bar", "kind": "restaurant", "lat": 38.7131, "lon": -9.1451, "timeZone": "Europe/Lisbon",
                    "openingHours": ["fri": ["18:00-23:30"]],
                ],
                expect: .created
            )
            let placeID = try #require(added["id"] as? String)
            let drawn = try await client.object(
                .post, "/v1/decisions", token: ana,
                body: ["method": "random", "seed": 7, "visitAt": Self.fridayEvening, "candidates": ["placeIds": [placeID]]],
                expect: .created
            )
            let id = try #require(drawn["id"] as? String)
            let result = try #require(drawn["result"] as? [String: Any])
            #expect(result["winner"] as? String == placeID)
            #expect(result["winnerOpen"] as? Bool == true)

            // The bar now opens on Saturdays only: the recount still agrees, and says the winner is closed then now.
            _ = try await client.object(.patch, "/v1/places/\(placeID)", token: ana, body: ["openingHours": ["sat": ["18:00-23:30"]]])
            let recount = try await client.object(.get, "/v1/decisions/\(id)/recount", token: ana)
            #expect(recount["agrees"] as? Bool == true)
            #expect((recount["stored"] as? [String: Any])?["winnerOpen"] as? Bool == true)
            #expect((recount["recounted"] as? [String: Any])?["winnerOpen"] as? Bool == false)

            // Without a visit time, nothing is said about opening.
            let plain = try await client.object(
                .post, "/v1/decisions", token: ana, body: ["method": "random", "seed": 7, "candidates": ["placeIds": [placeID]]], expect: .created
            )
            #expect((plain["result"] as? [String: Any])?["winnerOpen"] == nil)
            #expect((plain["candidates"] as? [[String: Any]])?.first?["openStatus"] == nil)
        }
    }
}
