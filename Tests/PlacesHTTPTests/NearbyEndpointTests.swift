import Foundation
import GeoIndex
import Hummingbird
import HummingbirdTesting
import PlacesSQLite
import Testing

@testable import PlacesHTTP

@Suite("GET /v1/places/nearby")
struct NearbyEndpointTests {
    static let places = [
        TestApp.place("gem-a", 37.7750, -122.4190),
        TestApp.place("rest-b", 37.7760, -122.4200, kind: .restaurant),
        TestApp.place("gem-far", 37.90, -122.40),
        TestApp.place("fiji-east", -16.80, 179.999),
        TestApp.place("fiji-west", -16.80, -179.999),
    ]

    @Test func answersNearestFirstWithAllDistanceUnits() async throws {
        try await TestApp.withClient(Self.places) { client in
            try await client.execute(uri: "/v1/places/nearby?lat=37.7749&lon=-122.4194&radius=1", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                let body = try TestApp.object(response.body)
                #expect(body["radiusMiles"] as? Double == 1)
                #expect(body["capped"] as? Bool == false)
                #expect(body["count"] as? Int == 2)
                let places = try #require(body["places"] as? [[String: Any]])
                #expect(places.map { $0["id"] as? String } == ["gem-a", "rest-b"])
                let first = places[0]
                for key in ["id", "name", "kind", "lat", "lon", "distanceMeters", "distanceMiles", "distanceKm"] {
                    #expect(first[key] != nil, "missing \(key)")
                }
                let meters = try #require(first["distanceMeters"] as? Double)
                let expected = Geodesy.distanceMeters(
                    Coordinate(latitude: 37.7749, longitude: -122.4194),
                    Coordinate(latitude: 37.7750, longitude: -122.4190)
                )
                #expect(abs(meters - expected) < 1e-6)
            }
        }
    }

    @Test func aRadiusAboveTwentyMilesIsCappedAndSaysSo() async throws {
        try await TestApp.withClient(Self.places) { client in
            try await client.execute(uri: "/v1/places/nearby?lat=37.7749&lon=-122.4194&radius=100", method: .get) { response in
                let body = try TestApp.object(response.body)
                #expect(body["radiusMiles"] as? Double == 20)
                #expect(body["capped"] as? Bool == true)
                #expect(body["count"] as? Int == 3)
            }
        }
    }

    @Test func circlesAcrossTheAntimeridianFindBothSides() async throws {
        try await TestApp.withClient(Self.places) { client in
            try await client.execute(uri: "/v1/places/nearby?lat=-16.8&lon=180&radius=1", method: .get) { response in
                let places = try #require(try TestApp.object(response.body)["places"] as? [[String: Any]])
                #expect(Set(places.compactMap { $0["id"] as? String }) == ["fiji-east", "fiji-west"])
            }
        }
    }

    @Test func kindAndLimitFilter() async throws {
        try await TestApp.withClient(Self.places) { client in
            try await client.execute(uri: "/v1/places/nearby?lat=37.7749&lon=-122.4194&kind=restaurant", method: .get) { response in
                let places = try #require(try TestApp.object(response.body)["places"] as? [[String: Any]])
                #expect(places.map { $0["id"] as? String } == ["rest-b"])
            }
            try await client.execute(uri: "/v1/places/nearby?lat=37.7749&lon=-122.4194&limit=1&radius=20", method: .get) { response in
                let body = try TestApp.object(response.body)
                #expect(body["count"] as? Int == 1)
            }
        }
    }

    /// `sort=score`: the best score first, then the nearest, then by id; a new rating reorders the answer at once, and
    /// `minRating` keeps the order it is given.
    @Test func sortByScoreRanksTheBestFirstAndFollowsRatings() async throws {
        try await TestApp.withClient(Self.places) { client in
            func ids(_ query: String) async throws -> [String] {
                let response = try await client.json(.get, "/v1/places/nearby?lat=37.7749&lon=-122.4194&radius=20&\(query)")
                #expect(response.status == .ok, "\(query): \(String(buffer: response.body))")
                return (try TestApp.object(response.body)["places"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            }
            // Unrated, every place scores 3: nearest first.
            #expect(try await ids("sort=score") == ["gem-a", "rest-b", "gem-far"])
            let raters = [try await client.signUp("rater_a"), try await client.signUp("rater_b")]
            for token in raters {
                #expect(try await client.json(.put, "/v1/places/gem-far/rating", token: token, body: ["stars": 5]).status == .ok)
            }
            _ = try await client.json(.put, "/v1/places/rest-b/rating", token: raters[0], body: ["stars": 4])
            #expect(try await ids("sort=score") == ["gem-far", "rest-b", "gem-a"])
            #expect(try await ids("sort=score&limit=1") == ["gem-far"])
            #expect(try await ids("sort=score&kind=gem") == ["gem-far", "gem-a"])
            #expect(try await ids("sort=distance&minRating=4") == ["rest-b", "gem-far"])
            #expect(try await ids("sort=score&minRating=4.5") == ["gem-far"])
            // Taken back, the ratings leave the order as it was.
            for token in raters { _ = try await client.json(.delete, "/v1/places/gem-far/rating", token: token) }
            #expect(try await ids("sort=score") == ["rest-b", "gem-a", "gem-far"])
            #expect(try await ids("minRating=4.5").isEmpty)
        }
    }

    @Test func geoJSONByAcceptHeaderOrFormat() async throws {
        try await TestApp.withClient(Self.places) { client in
            for (uri, headers) in [
                ("/v1/places/nearby?lat=37.7749&lon=-122.4194&radius=1", [.accept: "application/geo+json"]),
                ("/v1/places/nearby?lat=37.7749&lon=-122.4194&radius=1&format=geojson", [:]),
            ] as [(String, HTTPFields)] {
                try await client.execute(uri: uri, method: .get, headers: headers) { response in
                    #expect(response.headers[.contentType] == "application/geo+json")
                    #expect(response.headers[.vary] == "Accept")
                    let body = try TestApp.object(response.body)
                    #expect(body["type"] as? String == "FeatureCollection")
                    let features = try #require(body["features"] as? [[String: Any]])
                    #expect(features.count == 2)
                    let geometry = try #require(features.first?["geometry"] as? [String: Any])
                    #expect(geometry["type"] as? String == "Point")
                    #expect(geometry["coordinates"] as? [Double] == [-122.4190, 37.7750])
                    // The answer's own fields ride along; each feature's properties are the place as JSON shows it.
                    #expect(body["count"] as? Int == 2 && body["radiusMiles"] as? Double == 1 && body["capped"] as? Bool == false)
                    let properties = try #require(features.first?["properties"] as? [String: Any])
                    #expect(features.first?["id"] as? String == properties["id"] as? String)
                    #expect(properties["lat"] as? Double == 37.7750 && properties["distanceMeters"] is Double)
                }
            }
        }
    }

    @Test(arguments: [
        ("lon=1", "lat"), ("lat=abc&lon=1", "lat"), ("lat=NaN&lon=1", "lat"), ("lat=95&lon=1", "lat"),
        ("lat=1&lon=-200", "lon"), ("lat=1", "lon"), ("lat=1&lon=1&radius=-1", "radius"), ("lat=1&lon=1&radius=0", "radius"),
        ("lat=1&lon=1&limit=0", "limit"), ("lat=1&lon=1&limit=501", "limit"), ("lat=1&lon=1&kind=bar", "kind"),
        ("lat=1&lon=1&format=xml", "format"), ("lat=1&lon=1&sort=rating", "sort"), ("lat=1&lon=1&sort=", "sort"),
    ])
    func badInputIs400WithTheFieldNamed(query: String, field: String) async throws {
        try await TestApp.withClient([]) { client in
            let error = try await client.error(.get, "/v1/places/nearby?" + query, expect: .badRequest)
            #expect(error.code == "invalid_input")
            #expect(error.field == field)
        }
    }

    /// A signed-in request that names its centre and radius reads nothing of the database: not the settings, not even
    /// the caller's session (read only when a handler needs the caller), so it answers as an anonymous one does when the
    /// database does not. Leaving the radius (or the centre) out reads the session and the settings, once each; a
    /// signed-in route reads the session once.
    @Test func aSignedInRequestNamingCentreAndRadiusReadsNothing() async throws {
        let log = StatementLog()
        let database = try PlacesDatabase.inMemory(statements: { log.record($0) }, accesses: { log.access() })
        let app = try await TestApp.togetherServices(Self.places, database: database).app
        try await app.test(.router) { client in
            let token = try await client.signUp("ana")
            func nearby(_ query: String) async throws -> (statements: [String], accesses: Int) {
                try await log.during {
                    let response = try await client.json(.get, "/v1/places/nearby?\(query)", token: token)
                    #expect(response.status == .ok, "\(query): \(String(buffer: response.body))")
                }
            }
            let settings = { (statements: [String]) in statements.filter { $0.contains("user_settings") }.count }
            for query in ["lat=37.7749&lon=-122.4194&radius=1", "lat=37.7749&lon=-122.4194&radiusKm=2&kind=gem"] {
                let named = try await nearby(query)
                #expect(settings(named.statements) == 0, "\(query): \(named.statements)")
                #expect(named.accesses == 0, "\(query): \(named.statements)")
            }
            let defaulted = try await nearby("lat=37.7749&lon=-122.4194")
            #expect(settings(defaulted.statements) == 1, "\(defaulted.statements)")
            #expect(defaulted.accesses == 2, "\(defaulted.statements)")
            let me = try await log.during {
                let response = try await client.json(.get, "/v1/me", token: token)
                #expect(response.status == .ok)
            }
            #expect(me.statements.filter { $0.contains("FROM session") }.count == 1, "\(me.statements)")
            // A token that is no session: a route that needs the caller refuses it; one that does not answers.
            #expect(try await client.json(.get, "/v1/me", token: "not-a-session").status == .unauthorized)
            let anyone = try await client.json(.get, "/v1/places/nearby?lat=37.7749&lon=-122.4194&radius=1", token: "not-a-session")
            #expect(anyone.status == .ok)
        }
    }
}
