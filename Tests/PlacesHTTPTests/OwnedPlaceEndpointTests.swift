import Foundation
import GeoIndex
import Hummingbird
import HummingbirdTesting
import PlacesCore
import Testing

@testable import PlacesHTTP

@Suite("Places people add, favourite, rate and find")
struct OwnedPlaceEndpointTests {
    static let seeded = [
        TestApp.place("seeded-cafe", 37.7750, -122.4190, name: "Café Lumière"),
        TestApp.place("seeded-park", 37.7760, -122.4200, name: "Hidden Park"),
    ]

    static func ids(_ response: TestResponse) throws -> [String] {
        let places = try TestApp.object(response.body)["places"] as? [[String: Any]] ?? []
        return places.compactMap { $0["id"] as? String }
    }

    @Test func ownersAddChangeDeleteAndRestoreAndTheIndexFollowsAtOnce() async throws {
        try await TestApp.withClient(Self.seeded) { client in
            let owner = try await client.signUp("owner")
            let stranger = try await client.signUp("stranger")
            let nearby = "/v1/places/nearby?lat=37.775&lon=-122.419&radius=1"

            let created = try await client.json(.post, "/v1/places", token: owner, body: [
                "name": "Secret Stairs", "lat": 37.7755, "lon": -122.4195, "tags": ["Views", "stairs"],
            ])
            #expect(created.status == .created)
            let place = try TestApp.object(created.body)
            let id = try #require(place["id"] as? String)
            #expect(created.headers[.location] == "/v1/places/\(id)")
            #expect(place["tags"] as? [String] == ["views", "stairs"])
            #expect(try Self.ids(try await client.json(.get, nearby)).contains(id))

            // Nobody, a stranger, and the owner.
            #expect(try await client.json(.patch, "/v1/places/\(id)", body: ["name": "X"]).status == .unauthorized)
            let forbidden = try await client.error(.patch, "/v1/places/\(id)", token: stranger, body: ["name": "Mine now"], expect: .forbidden)
            #expect(forbidden.code == "forbidden")
            #expect(try await client.json(.delete, "/v1/places/\(id)", token: stranger).status == .forbidden)
            let renamed = try await client.json(.patch, "/v1/places/\(id)", token: owner, body: ["name": "Secret Steps", "lat": 37.78])
            #expect(renamed.status == .ok)
            #expect(try TestApp.object(renamed.body)["name"] as? String == "Secret Steps")
            #expect(try TestApp.object(renamed.body)["tags"] as? [String] == ["views", "stairs"])
            let moved = try await client.json(.get, "/v1/places/nearby?lat=37.78&lon=-122.4195&radius=0.01")
            #expect(try Self.ids(moved) == [id])

            // Seeded places have no owner: only the operator's CLI edits them.
            let seeded = try await client.json(.patch, "/v1/places/seeded-cafe", token: owner, body: ["name": "Mine"])
            #expect(seeded.status == .forbidden)
            #expect(try await client.json(.delete, "/v1/places/seeded-cafe", token: owner).status == .forbidden)
            #expect(try await client.json(.post, "/v1/places/seeded-cafe/restore", token: owner).status == .forbidden)
            #expect(try await client.json(.delete, "/v1/places/seeded-cafe").status == .unauthorized)

            #expect(try await client.json(.delete, "/v1/places/\(id)", token: owner).status == .noContent)
            #expect(try await !Self.ids(try await client.json(.get, "/v1/places/nearby?lat=37.78&lon=-122.4195&radius=1")).contains(id))
            #expect(try await client.json(.get, "/v1/places/\(id)").status == .notFound)
            #expect(try await client.json(.post, "/v1/places/\(id)/restore", token: stranger).status == .notFound)
            let restored = try await client.json(.post, "/v1/places/\(id)/restore", token: owner)
            #expect(restored.status == .ok)
            #expect(try Self.ids(try await client.json(.get, "/v1/places/nearby?lat=37.78&lon=-122.4195&radius=1")).contains(id))
        }
    }

    @Test func badPlaceBodiesAreNamedAndIdsAreTheServers() async throws {
        try await TestApp.withClient([]) { client in
            let token = try await client.signUp("maker")
            for (body, field) in [
                (["name": "A", "lat": 91, "lon": 0], "lat"), (["name": "A", "lat": 0], "lon"), (["lat": 0, "lon": 0], "name"),
                (["name": "A", "lat": 0, "lon": 0, "id": "mine"], "id"), (["name": "A", "lat": 0, "lon": 0, "colour": "red"], "colour"),
                (["name": "A", "lat": 0, "lon": 0, "priceLevel": 5], "priceLevel"), (["name": "A", "lat": "NaN", "lon": 0], "lat"),
                // A request is typed: no number for a phone, no "a;b" for tags (seed files may write both).
                (["name": "A", "lat": 0, "lon": 0, "phone": 5550100], "phone"), (["name": 7, "lat": 0, "lon": 0], "name"),
                (["name": "A", "lat": 0, "lon": 0, "tags": "a;b"], "tags"),
                // Opening hours are the document's shape exactly: a null day must still be a day, days are lowercase,
                // and each is a list (a seed file may write one interval as text).
                (["name": "A", "lat": 0, "lon": 0, "openingHours": ["": NSNull()]], "openingHours"),
                (["name": "A", "lat": 0, "lon": 0, "openingHours": ["MON": ["08:00-12:00"]]], "openingHours"),
                (["name": "A", "lat": 0, "lon": 0, "openingHours": ["mon": "08:00-12:00"]], "openingHours"),
                // A control character is refused even where a trim would have taken it away.
                (["name": "A\n", "lat": 0, "lon": 0], "name"), (["name": "A", "lat": 0, "lon": 0, "description": "\u{0B}x"], "description"),
            ] as [([String: Any], String)] {
                let error = try await client.error(.post, "/v1/places", token: token, body: body, expect: .badRequest)
                #expect(error.field == field, "\(body)")
            }
        }
    }

    @Test func sameNameWithin50MetresIsADuplicateUnlessAllowed() async throws {
        try await TestApp.withClient(Self.seeded) { client in
            let token = try await client.signUp("dupe")
            // 0.0003° of latitude is about 33 m; the name differs only in case and accents.
            let duplicate = try await client.json(.post, "/v1/places", token: token, body: ["name": "cafe lumiere", "lat": 37.7753, "lon": -122.4190])
            #expect(duplicate.status == .conflict)
            let error = try #require(try TestApp.object(duplicate.body)["error"] as? [String: Any])
            #expect(error["code"] as? String == "duplicate_place")
            #expect(error["existingId"] as? String == "seeded-cafe")
            let far = try await client.json(.post, "/v1/places", token: token, body: ["name": "Café Lumière", "lat": 37.7760, "lon": -122.4190])
            #expect(far.status == .created)
            let allowed = try await client.json(.post, "/v1/places", token: token, body: [
                "name": "Café Lumière", "lat": 37.7750, "lon": -122.4190, "allowDuplicate": true,
            ])
            #expect(allowed.status == .created)
        }
    }

    @Test func favouritesListNearestFirstAndFollowDeletion() async throws {
        let places = [TestApp.place("near", 10, 10), TestApp.place("mid", 10, 10.01), TestApp.place("far", 10, 10.02)]
        try await TestApp.withClient(places) { client in
            let token = try await client.signUp("fan")
            for id in ["far", "near", "mid", "near"] {
                #expect(try await client.json(.put, "/v1/places/\(id)/favorite", token: token).status == .noContent)
            }
            #expect(try await client.json(.put, "/v1/places/nope/favorite", token: token).status == .notFound)
            let page = try TestApp.object(try await client.json(.get, "/v1/me/favorites?lat=10&lon=10&limit=2", token: token).body)
            let items = try #require(page["items"] as? [[String: Any]])
            #expect(items.compactMap { $0["id"] as? String } == ["near", "mid"])
            #expect(items[0]["distanceMeters"] as? Double == 0)
            let cursor = try #require(page["nextCursor"] as? String)
            let next = try TestApp.object(try await client.json(.get, "/v1/me/favorites?lat=10&lon=10&limit=2&cursor=\(cursor)", token: token).body)
            #expect((next["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["far"])
            #expect(next["nextCursor"] == nil)
            #expect(try await client.json(.delete, "/v1/places/mid/favorite", token: token).status == .noContent)
            let after = try TestApp.object(try await client.json(.get, "/v1/me/favorites", token: token).body)
            #expect((after["items"] as? [[String: Any]])?.count == 2)
            #expect(try await client.json(.get, "/v1/me/favorites?cursor=zzz", token: token).status == .badRequest)
        }
    }

    @Test func ratingsReplaceAndScoreIsBayesian() async throws {
        try await TestApp.withClient([TestApp.place("rated", 1, 1)]) { client in
            let a = try await client.signUp("rater_a")
            let b = try await client.signUp("rater_b")
            _ = try await client.json(.put, "/v1/places/rated/rating", token: a, body: ["stars": 2])
            let replaced = try await client.json(.put, "/v1/places/rated/rating", token: a, body: ["stars": 5, "review": "Lovely"])
            #expect(replaced.status == .ok)
            #expect((try TestApp.object(replaced.body)["place"] as? [String: Any])?["ratingCount"] as? Int == 1)
            _ = try await client.json(.put, "/v1/places/rated/rating", token: b, body: ["stars": 4])
            let place = try TestApp.object(try await client.json(.get, "/v1/places/rated").body)
            #expect(place["ratingCount"] as? Int == 2)
            #expect(place["ratingAverage"] as? Double == 4.5)
            let score = try #require(place["score"] as? Double)
            #expect(abs(score - (5 * 3.0 + 9) / 7) < 1e-12)
            for body in [["stars": 0], ["stars": 6], ["stars": 4.5], [:], ["stars": 3, "review": String(repeating: "x", count: 501)]] as [[String: Any]] {
                #expect(try await client.json(.put, "/v1/places/rated/rating", token: a, body: body).status == .badRequest, "\(body)")
            }
            let removed = try await client.json(.delete, "/v1/places/rated/rating", token: b)
            #expect((try TestApp.object(removed.body))["ratingCount"] as? Int == 1)
            // Deleting again answers as the first delete did (idempotent, as a favourite is); an unknown place is 404.
            let again = try await client.json(.delete, "/v1/places/rated/rating", token: b)
            #expect(again.status == .ok)
            #expect((try TestApp.object(again.body))["ratingCount"] as? Int == 1)
            #expect((try TestApp.object(again.body))["ratingAverage"] as? Double == 5)
            let never = try await client.json(.delete, "/v1/places/rated/rating", token: try await client.signUp("never"))
            #expect(never.status == .ok)
            #expect((try TestApp.object(never.body))["ratingCount"] as? Int == 1)
            #expect(try await client.json(.delete, "/v1/places/nope/rating", token: b).status == .notFound)
            // The filter sees the new average at once.
            let filtered = try await client.json(.get, "/v1/places/nearby?lat=1&lon=1&minRating=4.8")
            #expect(try Self.ids(filtered) == ["rated"])
        }
    }

    @Test func oneFiveStarDoesNotOutrankFiftyFourPointSixes() {
        let one = RatingAggregate(count: 1, sum: 5)
        let fifty = RatingAggregate(count: 50, sum: 230)
        #expect(fifty.score > one.score)
        #expect(RatingAggregate().score == RatingAggregate.priorMean)
        #expect(RatingAggregate().average == nil)
    }

    @Test func searchIgnoresCaseAndAccentsAndMatchesPrefixes() async throws {
        var gem = TestApp.place("museum", 48.86, 2.34, name: "Musée Secret")
        gem.description = "A tiny museum of mechanical birds"
        var taqueria = TestApp.place("tacos", 48.87, 2.35, kind: .restaurant, name: "El Farolito")
        taqueria.cuisine = "Mexican"
        taqueria.tags = ["late-night"]
        let far = TestApp.place("far-cafe", 40.0, -74.0, name: "Café Far Away")
        try await TestApp.withClient([TestApp.place("cafe", 48.861, 2.341, name: "Café de Flore"), gem, taqueria, far]) { client in
            func found(_ query: String) async throws -> [String] {
                let response = try await client.json(.get, "/v1/places/search?\(query)")
                #expect(response.status == .ok, "\(query): \(String(buffer: response.body))")
                return (try TestApp.object(response.body)["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            }
            #expect(try await Set(found("q=cafe")) == ["cafe", "far-cafe"])
            #expect(try await found("q=CAF%C3%89&lat=48.86&lon=2.34&radius=5") == ["cafe"])
            #expect(try await found("q=muse") == ["museum"])
            #expect(try await found("q=mechan%20bird") == ["museum"])
            #expect(try await found("q=mexican") == ["tacos"])
            #expect(try await found("q=late") == ["tacos"])
            #expect(try await found("q=nothing-like-it").isEmpty)
            for bad in ["q=", "", "q=%20%20", "q=a&radius=-1&lat=1&lon=1", "q=a&limit=0", "q=%22%2A%28"] {
                #expect(try await client.json(.get, "/v1/places/search?\(bad)").status == .badRequest, "\(bad)")
            }
            // Deleted places leave search too.
            let token = try await client.signUp("searcher")
            let created = try await client.json(.post, "/v1/places", token: token, body: ["name": "Zebra Crossing", "lat": 1, "lon": 1])
            let id = try #require(try TestApp.object(created.body)["id"] as? String)
            #expect(try await found("q=zebr") == [id])
            _ = try await client.json(.patch, "/v1/places/\(id)", token: token, body: ["name": "Quagga Crossing"])
            #expect(try await found("q=zebr").isEmpty)
            #expect(try await found("q=quagga") == [id])
            _ = try await client.json(.delete, "/v1/places/\(id)", token: token)
            #expect(try await found("q=quagga").isEmpty)
        }
    }

    @Test func searchPagesFollowTheCursorWithoutGapsOrRepeats() async throws {
        let piers = (0..<7).map { TestApp.place("pier-\($0)", 37.80 + Double($0) * 0.001, -122.40, name: "Pier \($0)") }
        try await TestApp.withClient(piers + [TestApp.place("other", 37.8, -122.4, name: "Ferry Building")]) { client in
            let query = "/v1/places/search?q=pier&lat=37.8&lon=-122.4&radius=5"
            let all = try TestApp.object(try await client.json(.get, query + "&limit=100").body)
            let everything = (all["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(everything == (0..<7).map { "pier-\($0)" })
            var paged: [String] = []
            var cursor: String?
            repeat {
                let page = try TestApp.object(try await client.json(.get, query + "&limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")).body)
                paged += (page["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                cursor = page["nextCursor"] as? String
            } while cursor != nil && paged.count < 20
            #expect(paged == everything)
            #expect(try await client.json(.get, query + "&cursor=garbage").status == .badRequest)
        }
    }

    @Test func searchNearAPointPutsNearerMatchesFirstAndExcludesNone() async throws {
        let places = [
            TestApp.place("mx-taco", 19.43, -99.13, name: "Taco Stand"), TestApp.place("sf-taco", 37.76, -122.42, name: "Taco Stand"),
            TestApp.place("ny-taco", 40.71, -74.0, name: "Taco Stand"),
        ]
        try await TestApp.withClient(places) { client in
            func ids(_ query: String) async throws -> [String] {
                let page = try TestApp.object(try await client.json(.get, "/v1/places/search?" + query).body)
                return (page["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            }
            #expect(try await ids("q=taco") == ["mx-taco", "ny-taco", "sf-taco"])
            #expect(try await ids("q=taco&near=37.7749,-122.4194") == ["sf-taco", "mx-taco", "ny-taco"])
            #expect(try await ids("q=taco&near=40.7,-74.0&limit=1") == ["ny-taco"])
            let hit = try TestApp.object(try await client.json(.get, "/v1/places/search?q=taco&near=37.76,-122.42").body)
            #expect(((hit["items"] as? [[String: Any]])?.first?["distanceMeters"] as? Double) == 0)
            for bad in ["near=37.7", "near=37.7,-122.4&lat=37.7&lon=-122.4", "near=100,0"] {
                let refused = try await client.json(.get, "/v1/places/search?q=taco&" + bad)
                #expect(refused.status == .badRequest, "\(bad)")
                #expect(try TestApp.error(refused.body).field == "near", "\(bad)")
            }
        }
    }

    /// `openAt` on a place's details says whether it is open then on its own clock, as nearby's filter decides it.
    @Test func aPlacesDetailsSayWhetherItIsOpenAtATime() async throws {
        var late = TestApp.place("late", 40, -74)
        late.openingHours = try OpeningHours.parse(["mon": ["18:00-02:00"], "tue": ["09:00-17:00"]])
        late.timeZone = "America/New_York"
        let places = [late, TestApp.place("plain", 40.01, -74)]
        try await TestApp.withClient(places) { client in
            var statuses: [String] = []
            for (id, at) in [
                ("late", "2026-11-24T06:30:00Z"), ("late", "2026-11-24T13:00:00Z"), ("late", "2026-11-24T08:00:00-05:00"),
                ("plain", "2026-11-24T06:30:00Z"),
            ] {
                let answer = try TestApp.object(try await client.json(.get, "/v1/places/\(id)?openAt=\(at)").body)
                statuses.append(answer["openStatus"] as? String ?? "absent")
            }
            // Tuesday 01:30 in New York (Monday's evening runs past midnight), then Tuesday 08:00 twice, and a place
            // without hours.
            #expect(statuses == ["open", "closed", "closed", "unknown"])
            #expect(try TestApp.object(try await client.json(.get, "/v1/places/late").body)["openStatus"] as? String == nil)
            #expect(try await client.error(.get, "/v1/places/late?openAt=tomorrow", expect: .badRequest).field == "openAt")
        }
    }

    @Test func signedInNearbyUsesTheDefaultLocationAndRadius() async throws {
        try await TestApp.withClient([TestApp.place("home", 51.5, -0.12), TestApp.place("edge", 51.5, -0.08)]) { client in
            let token = try await client.signUp("londoner")
            #expect(try await client.json(.get, "/v1/places/nearby", token: token).status == .badRequest)
            _ = try await client.json(.patch, "/v1/me/settings", token: token, body: [
                "defaultLocation": ["lat": 51.5, "lon": -0.12], "defaultRadiusMiles": 1,
            ])
            let answer = try await client.json(.get, "/v1/places/nearby", token: token)
            #expect(try Self.ids(answer) == ["home"])
            #expect(try TestApp.object(answer.body)["radiusMiles"] as? Double == 1)
            let wider = try await client.json(.get, "/v1/places/nearby?radiusKm=5", token: token)
            #expect(try Self.ids(wider) == ["home", "edge"])
            let place = try #require((try TestApp.object(wider.body)["places"] as? [[String: Any]])?.last)
            let meters = try #require(place["distanceMeters"] as? Double)
            #expect(abs((place["distanceKm"] as? Double ?? 0) - meters / 1000) < 1e-9)
            #expect(abs((place["distanceMiles"] as? Double ?? 0) - meters / 1609.344) < 1e-9)
            #expect(try await client.json(.get, "/v1/places/nearby?radius=1&radiusKm=1", token: token).status == .badRequest)
            #expect(try await client.json(.get, "/v1/places/nearby").status == .badRequest)
        }
    }

    @Test func filtersMatchABruteForceAnswer() async throws {
        var generator = SplitMix64(seed: 42)
        let cuisines = ["Thai", "Mexican", "thai", nil]
        let tagPool = ["cheap", "views", "quiet", "late"]
        var places: [Place] = []
        for index in 0..<400 {
            var place = TestApp.place(
                String(format: "p%03d", index),
                40 + generator.nextUnitDouble() * 0.2,
                -74 + generator.nextUnitDouble() * 0.2,
                kind: index % 3 == 0 ? .gem : .restaurant
            )
            place.cuisine = cuisines[index % 4]
            place.priceLevel = index % 5 == 0 ? nil : 1 + index % 4
            place.tags = tagPool.filter { _ in generator.nextUnitDouble() < 0.4 }
            if index % 2 == 0 {
                place.openingHours = try OpeningHours.parse(["mon": ["18:00-02:00"], "tue": ["09:00-17:00"]])
                place.timeZone = index % 4 == 0 ? "America/New_York" : "Asia/Tokyo"
            }
            places.append(place)
        }
        let app = try await TestApp.make(places)
        let stored = places
        let center = Coordinate(latitude: 40.1, longitude: -73.9)
        // Tuesday 01:30 in New York is Tuesday 15:30 in Tokyo.
        let openAt = "2026-11-24T06:30:00Z"
        let instant = try #require(try? Date.ISO8601FormatStyle().parse(openAt))
        let cases: [(String, @Sendable (Place) -> Bool)] = [
            ("kind=restaurant", { $0.kind == .restaurant }),
            ("tag=views&tag=quiet", { $0.tags.contains("views") && $0.tags.contains("quiet") }),
            ("cuisine=THAI", { $0.cuisine?.lowercased() == "thai" }),
            ("minPrice=2&maxPrice=3", { ($0.priceLevel ?? 0) >= 2 && ($0.priceLevel ?? 9) <= 3 }),
            ("openAt=\(openAt)", { place in
                guard let hours = place.openingHours, let zone = place.timeZone.flatMap(TimeZone.init(identifier:)) else { return true }
                return hours.isOpen(at: OpeningHours.LocalTime(instant, in: zone))
            }),
        ]
        try await app.test(.router) { client in
            for (query, keep) in cases {
                let expected = stored
                    .map { ($0, Geodesy.distanceMeters(center, $0.coordinate)) }
                    .filter { $0.1 <= 5 * 1609.344 && keep($0.0) }
                    .sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
                    .prefix(500).map(\.0.id)
                let response = try await client.json(.get, "/v1/places/nearby?lat=40.1&lon=-73.9&radius=5&limit=500&\(query)")
                #expect(response.status == .ok, "\(query)")
                #expect(try Self.ids(response) == Array(expected), "\(query)")
            }
            let open = try TestApp.object(try await client.json(.get, "/v1/places/nearby?lat=40.1&lon=-73.9&limit=500&openAt=\(openAt)").body)
            let statuses = Set((open["places"] as? [[String: Any]] ?? []).compactMap { $0["openStatus"] as? String })
            #expect(statuses == ["open", "unknown"])
            for bad in ["minPrice=0", "maxPrice=5", "minPrice=3&maxPrice=2", "minRating=6", "openAt=tomorrow", "cuisine=", "kind=bar"] {
                #expect(try await client.json(.get, "/v1/places/nearby?lat=40&lon=-74&\(bad)").status == .badRequest, "\(bad)")
            }
        }
    }
}
