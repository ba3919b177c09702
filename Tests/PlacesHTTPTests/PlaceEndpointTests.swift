import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import PlacesHTTP

@Suite("Places, health and the OpenAPI document")
struct PlaceEndpointTests {
    @Test func aPlaceByID() async throws {
        let app = try await TestApp.make([TestApp.place("gem-a", 37.775, -122.419, name: "Café Lumière")])
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/places/gem-a", method: .get) { response in
                #expect(response.status == .ok)
                let body = try TestApp.object(response.body)
                #expect(body["id"] as? String == "gem-a")
                #expect(body["name"] as? String == "Café Lumière")
                #expect(body["createdAt"] as? String == "2027-01-15T08:00:00Z")
            }
        }
    }

    @Test(arguments: ["/v1/places/nope", "/no/such/route"])
    func unknownThingsAre404WithTheErrorBody(uri: String) async throws {
        let app = try await TestApp.make([])
        try await app.test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .notFound)
                let error = try TestApp.error(response.body)
                #expect(error.code == "not_found")
            }
        }
    }

    @Test func healthCountsTheIndexedPlaces() async throws {
        let app = try await TestApp.make([TestApp.place("a", 1, 1), TestApp.place("b", 2, 2)])
        try await app.test(.router) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                let body = try TestApp.object(response.body)
                #expect(body["places"] as? Int == 2)
            }
        }
    }

    @Test func theOpenAPIDocumentIsServedFromTheBinary() async throws {
        let app = try await TestApp.make([])
        try await app.test(.router) { client in
            try await client.execute(uri: "/openapi.yaml", method: .get) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.hasPrefix("openapi: 3.1"))
                for path in ["/health:", "/openapi.yaml:", "/v1/places/nearby:", "/v1/places/{id}:"] {
                    #expect(text.contains(path), "document lacks \(path)")
                }
            }
        }
    }
}
