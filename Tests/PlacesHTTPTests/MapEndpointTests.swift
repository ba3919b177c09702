import Foundation
import GeoIndex
import Hummingbird
import HummingbirdTesting
import PlacesSQLite
import Testing

@testable import PlacesHTTP

@Suite("The map's endpoints: within")
struct MapEndpointTests {
    /// Nearby's places: two in San Francisco, one further north, and one each side of the antimeridian.
    static let places = NearbyEndpointTests.places

    @Test func withinAnswersThePlacesInTheBoxByScoreThenID() async throws {
        try await TestApp.withClient(Self.places) { client in
            try await client.execute(uri: "/v1/places/within?bbox=-122.5,37.7,-122.3,37.8", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.vary] == "Accept")
                let body = try TestApp.object(response.body)
                #expect(body["bbox"] as? [Double] == [-122.5, 37.7, -122.3, 37.8])
                #expect(body["count"] as? Int == 2)
                #expect(body["nextCursor"] == nil)
                let places = try #require(body["places"] as? [[String: Any]])
                // Unrated, so equal scores: by id.
                #expect(places.map { $0["id"] as? String } == ["gem-a", "rest-b"])
                #expect(places[0]["distanceMeters"] == nil)
                #expect(places[0]["score"] as? Double == 3)
            }
            // Across the antimeridian, and paged one at a time with the cursor.
            let first = try await client.execute(uri: "/v1/places/within?bbox=179.9,-17,-179.9,-16&limit=1", method: .get) { response in
                let body = try TestApp.object(response.body)
                #expect((body["places"] as? [[String: Any]])?.map { $0["id"] as? String } == ["fiji-east"])
                return try #require(body["nextCursor"] as? String)
            }
            try await client.execute(uri: "/v1/places/within?bbox=179.9,-17,-179.9,-16&limit=1&cursor=\(first)", method: .get) { response in
                let body = try TestApp.object(response.body)
                #expect((body["places"] as? [[String: Any]])?.map { $0["id"] as? String } == ["fiji-west"])
                #expect(body["nextCursor"] == nil)
            }
        }
    }

    @Test func withinAnswersGeoJSONAndFilters() async throws {
        try await TestApp.withClient(Self.places) { client in
            try await client.execute(
                uri: "/v1/places/within?bbox=-180,-90,180,90&kind=restaurant",
                method: .get,
                headers: [.accept: "application/geo+json"]
            ) { response in
                #expect(response.headers[.contentType] == "application/geo+json")
                let body = try TestApp.object(response.body)
                #expect(body["type"] as? String == "FeatureCollection")
                let features = try #require(body["features"] as? [[String: Any]])
                #expect(features.map { $0["id"] as? String } == ["rest-b"])
                let geometry = try #require(features.first?["geometry"] as? [String: Any])
                #expect(geometry["coordinates"] as? [Double] == [-122.42, 37.776])
            }
        }
    }

    @Test func badBoxesAreRefusedNamingBbox() async throws {
        try await TestApp.withClient(Self.places) { client in
            for query in ["", "bbox=1,2,3", "bbox=0,91,1,92", "bbox=0,10,1,9", "bbox=-181,0,0,1", "bbox=0,0,1,1&limit=501", "bbox=0,0,1,1&cursor=x"] {
                try await client.execute(uri: "/v1/places/within?\(query)", method: .get) { response in
                    #expect(response.status == .badRequest, "\(query)")
                    let error = try #require(try TestApp.object(response.body)["error"] as? [String: Any])
                    #expect(error["code"] as? String == "invalid_input")
                    let field = query.contains("limit") ? "limit" : query.contains("cursor") ? "cursor" : "bbox"
                    #expect(error["field"] as? String == field, "\(query)")
                }
            }
        }
    }

    @Test func aPlaceGivesDirectionsFromAPointOrTheCallersDefaultLocation() async throws {
        try await TestApp.withClient(Self.places) { client in
            let answer = try await client.json(.get, "/v1/places/gem-far?from=37.7749,-122.4194")
            #expect(answer.status == .ok)
            let directions = try #require(try TestApp.object(answer.body)["directions"] as? [String: Any])
            let expected = Geodesy.distanceMeters(
                Coordinate(latitude: 37.7749, longitude: -122.4194),
                Coordinate(latitude: 37.90, longitude: -122.40)
            )
            #expect(abs((directions["distanceMeters"] as? Double ?? 0) - expected) < 1e-6)
            // Mostly north, a little east.
            let bearing = try #require(directions["bearingDegrees"] as? Double)
            #expect(bearing > 0 && bearing < 20)
            #expect(directions["compass"] as? String == "N")
            #expect(directions["geoURI"] as? String == "geo:37.9,-122.4")
            #expect((directions["from"] as? [String: Double]) == ["lat": 37.7749, "lon": -122.4194])
            // Without from: none for nobody; from the default location for someone who saved one.
            #expect(try TestApp.object(try await client.json(.get, "/v1/places/gem-far").body)["directions"] == nil)
            let token = try await client.signUp("walker")
            try await client.json(.patch, "/v1/me/settings", token: token, body: ["defaultLocation": ["lat": 37.90, "lon": -122.41]])
            let mine = try await client.json(.get, "/v1/places/gem-far", token: token)
            let east = try #require(try TestApp.object(mine.body)["directions"] as? [String: Any])
            #expect(east["compass"] as? String == "E")
            #expect(abs((east["bearingDegrees"] as? Double ?? 0) - 90) < 0.1)
            for bad in ["37.7", "91,0", "0,181", "a,b", "1,2,3", ""] {
                let refused = try await client.error(.get, "/v1/places/gem-far?from=\(bad)", expect: .badRequest)
                #expect(refused.field == "from", "\(bad)")
            }
        }
    }

    @Test func tagsLetCachesRevalidate() async throws {
        try await TestApp.withClient(Self.places) { client in
            for uri in ["/v1/places/gem-a", "/v1/places/within?bbox=-123,37,-122,38"] {
                let first = try await client.json(.get, uri)
                let tag = try #require(first.headers[.eTag])
                #expect(first.headers[.cacheControl] == "public, max-age=10")
                // The same answer again has the same tag; a request holding it gets 304 and no body.
                #expect(try await client.json(.get, uri).headers[.eTag] == tag)
                let again = try await client.json(.get, uri, headers: [.ifNoneMatch: "\"other\", W/\(tag)"])
                #expect(again.status == .notModified)
                #expect(again.body.readableBytes == 0)
                #expect(again.headers[.eTag] == tag)
                #expect(try await client.json(.get, uri, headers: [.ifNoneMatch: "\"other\""]).status == .ok)
                // A signed-in request's answer is still private to it.
                let token = try await client.signUp("cacher\(uri.count)")
                #expect(try await client.json(.get, uri, token: token).headers[.cacheControl] == "no-store")
            }
            #expect(try await client.json(.get, "/v1/places/within?bbox=-123,37,-122,38").headers[.vary] == "Accept")
            #expect(try await client.json(.get, "/v1/places/gem-a").headers[.vary] == "Authorization")
            // A change gives the place a new tag.
            let before = try await client.json(.get, "/v1/places/gem-a").headers[.eTag]
            let token = try await client.signUp("rater")
            try await client.json(.put, "/v1/places/gem-a/rating", token: token, body: ["stars": 5])
            let after = try await client.json(.get, "/v1/places/gem-a")
            #expect(after.headers[.eTag] != before)
            #expect(try await client.json(.get, "/v1/places/gem-a", headers: [.ifNoneMatch: before ?? ""]).status == .ok)
        }
    }

    @Test func clustersAddUpToThePlacesInTheBox() async throws {
        try await TestApp.withClient(Self.places) { client in
            // At zoom 3 the two San Francisco places share a cell, far from the third (another cell or not).
            let answer = try await client.json(.get, "/v1/places/clusters?bbox=-123,37,-122,38&zoom=3")
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/geo+json")
            #expect(answer.headers[.eTag] != nil)
            let body = try TestApp.object(answer.body)
            #expect(body["type"] as? String == "FeatureCollection")
            #expect(body["count"] as? Int == 3)
            #expect(body["zoom"] as? Int == 3)
            let features = try #require(body["features"] as? [[String: Any]])
            let cluster = try #require(features.first)
            let properties = try #require(cluster["properties"] as? [String: Any])
            #expect(properties["cluster"] as? Bool == true)
            #expect(properties["count"] as? Int == 3)
            #expect(properties["bbox"] as? [Double] == [-122.42, 37.775, -122.4, 37.9])
            #expect(properties["memberId"] as? String == "gem-a")
            // At zoom 16 each is a place of its own, as nearby's GeoJSON shows it.
            let close = try TestApp.object(try await client.json(.get, "/v1/places/clusters?bbox=-122.43,37.77,-122.41,37.78&zoom=16").body)
            let places = try #require(close["features"] as? [[String: Any]])
            #expect(Set(places.compactMap { $0["id"] as? String }) == ["gem-a", "rest-b"])
            #expect((places.first?["properties"] as? [String: Any])?["kind"] != nil)
            // Across the antimeridian, one kind.
            let fiji = try TestApp.object(try await client.json(.get, "/v1/places/clusters?bbox=179,-18,-179,-16&zoom=2&kind=gem").body)
            #expect(fiji["count"] as? Int == 2)
            for (query, field) in [
                ("bbox=0,0,1,1", "zoom"), ("bbox=0,0,1,1&zoom=21", "zoom"), ("zoom=3", "bbox"), ("bbox=-180,-90,180,90&zoom=12", "bbox"),
            ] {
                #expect(try await client.error(.get, "/v1/places/clusters?\(query)", expect: .badRequest).field == field, "\(query)")
            }
        }
    }
}
