import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import PlacesSQLite
import Testing

/// Read-your-writes across instances (`Places-Revision`, `Places-Min-Revision`) and readiness, with two applications
/// over one database file standing for two instances behind a balancer (neither runs its index sync: only the headers
/// bring the second one up to date).
@Suite("Revisions and readiness over HTTP")
struct RevisionEndpointTests {
    static let revisionHeader = HTTPFields.Element.Name("Places-Revision")!
    static let minimumHeader = HTTPFields.Element.Name("Places-Min-Revision")!
    static let reachedHeader = HTTPFields.Element.Name("Places-Revision-Reached")!

    static func revision(_ response: TestResponse) -> Int64? {
        response.headers[Self.revisionHeader].flatMap { Int64($0) }
    }

    @Test func aReadSendingTheRevisionOfAWriteSeesItOnAnotherInstance() async throws {
        try await TestApp.withDatabaseFile { path in
            let first = try await TestApp.togetherServices([TestApp.place("a", 40, -74)], database: try PlacesDatabase(path: path)).app
            let second = try await TestApp.togetherServices([], database: try PlacesDatabase(path: path)).app
            let written = try await first.test(.router) { client in
                let response = try await client.signUpAndAddNewSpot("ana")
                return try #require(Self.revision(response))
            }
            try await second.test(.router) { client in
                let stale = try await client.json(.get, "/v1/places/nearby?lat=40&lon=-74&radius=1")
                #expect(try TestApp.object(stale.body)["count"] as? Int == 1, "without the header: what this instance has")
                #expect((Self.revision(stale) ?? 0) < written)
                #expect(stale.headers[Self.reachedHeader] == nil)

                let fresh = try await client.json(
                    .get,
                    "/v1/places/nearby?lat=40&lon=-74&radius=1",
                    headers: [Self.minimumHeader: String(written)]
                )
                #expect(try TestApp.object(fresh.body)["count"] as? Int == 2)
                #expect(fresh.headers[Self.reachedHeader] == "true")
                #expect((Self.revision(fresh) ?? 0) >= written)

                let ahead = try await client.json(
                    .get,
                    "/v1/places/nearby?lat=40&lon=-74&radius=1",
                    headers: [Self.minimumHeader: String(written + 1_000)]
                )
                #expect(ahead.status == .ok, "a revision nobody made yet is answered as the instance can")
                #expect(ahead.headers[Self.reachedHeader] == "false")

                let bad = try await client.json(
                    .get,
                    "/health",
                    headers: [Self.minimumHeader: "soon"]
                )
                #expect(bad.status == .badRequest)
                #expect(try TestApp.error(bad.body).field == "Places-Min-Revision")
            }
        }
    }

    @Test func readyAnswersWhenTheDatabaseAnswersAndTheIndexHasCaughtUp() async throws {
        try await TestApp.withClient([TestApp.place("a", 40, -74)]) { client in
            let ready = try await client.json(.get, "/ready")
            #expect(ready.status == .ok)
            let body = try TestApp.object(ready.body)
            #expect(body["status"] as? String == "ready")
            #expect(body["places"] as? Int == 1)
            #expect((body["revision"] as? Int ?? 0) >= 1)
        }
    }
}
