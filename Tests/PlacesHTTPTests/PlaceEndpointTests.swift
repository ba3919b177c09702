import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import PlacesSQLite
import Testing

@testable import PlacesHTTP

@Suite("Places, health and the OpenAPI document")
struct PlaceEndpointTests {
    @Test func aPlaceByID() async throws {
        try await TestApp.withClient([TestApp.place("gem-a", 37.775, -122.419, name: "Café Lumière")]) { client in
            let body = try await client.object(.get, "/v1/places/gem-a", token: nil)
            #expect(body["id"] as? String == "gem-a")
            #expect(body["name"] as? String == "Café Lumière")
            #expect(body["createdAt"] as? String == "2027-01-15T08:00:00Z")
        }
    }

    @Test(arguments: ["/v1/places/nope", "/no/such/route"])
    func unknownThingsAre404WithTheErrorBody(uri: String) async throws {
        try await TestApp.withClient([]) { client in
            let error = try await client.error(.get, uri, expect: .notFound)
            #expect(error.code == "not_found")
        }
    }

    @Test func healthCountsTheIndexedPlaces() async throws {
        try await TestApp.withClient([TestApp.place("a", 1, 1), TestApp.place("b", 2, 2)]) { client in
            let body = try await client.object(.get, "/health", token: nil)
            #expect(body["places"] as? Int == 2)
        }
    }

    @Test func theOpenAPIDocumentIsServedFromTheBinary() async throws {
        try await TestApp.withClient([]) { client in
            try await client.execute(uri: "/openapi.yaml", method: .get) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.hasPrefix("openapi: 3.2"))
                // Every route the router serves is in the document with exactly its methods (HEAD goes with GET).
                var documented: [String: Set<String>] = [:]
                var current: String?
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix("  /"), line.hasSuffix(":") {
                        current = String(line.dropFirst(3).dropLast())
                        documented[current ?? "", default: []] = []
                    } else if let path = current, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                        let method = line.trimmingCharacters(in: .whitespaces).dropLast()
                        if ["get", "put", "post", "patch", "delete"].contains(method) { documented[path]?.insert(method.uppercased()) }
                    } else if !line.hasPrefix(" ") {
                        current = nil
                    }
                }
                let services = PlacesServices(repositories: try PlacesDatabase.inMemory().repositories, hasher: try TestApp.hasher())
                var served: [String: Set<String>] = [:]
                for route in buildRouter(services: services).routes where route.method != .head {
                    served[String(route.path.description.dropFirst()), default: []].insert(route.method.rawValue)
                }
                for path in Set(served.keys).union(documented.keys) {
                    #expect(documented[path] == served[path], "\(path): served \(served[path] ?? []), documented \(documented[path] ?? [])")
                }
            }
        }
    }
}
