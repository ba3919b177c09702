import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import PlacesSQLite
import Testing

@testable import PlacesHTTP

/// Answers a client can rely on: a NUL is refused wherever it comes, a query parameter a route does not read is
/// refused, 404 is for what the address names (a name in the body that matches nothing is 422), and a blank filter or
/// successor is refused rather than read as absent.
@Suite("Answers a client can rely on")
struct ReliableAnswerTests {
    @Test func aNULIsRefusedInEveryPathBodyQueryAndCursor() async throws {
        try await TestApp.withClient(Lisbon.places) { client in try await NULProbe.run(client) }
    }

    @Test func everyRouteRefusesAQueryParameterItDoesNotRead() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let token = try await client.signUp("ana")
            for route in try Self.routes() where !route.query.ignoresAll {
                let path = "/" + route.path.replacingOccurrences(of: #"\{[A-Za-z]+\}"#, with: "x", options: .regularExpression)
                let expected =
                    route.query.known.isEmpty ? "reads no query parameters" : "expected one of: \(route.query.known.joined(separator: ", "))"
                let response = try await client.json(route.method, path + "?sepia=1", token: token)
                #expect(response.status == .badRequest, "\(route.method) \(path): \(String(buffer: response.body))")
                let error = try TestApp.object(response.body)["error"] as? [String: Any]
                #expect(error?["field"] as? String == "sepia", "\(route.method) \(path)")
                #expect((error?["message"] as? String)?.contains(expected) == true, "\(route.method) \(path): \(error ?? [:])")
            }
            // A signed-in route still answers 401 first.
            for (method, uri) in [(HTTPRequest.Method.get, "/v1/me/favorites?sepia=1"), (.post, "/v1/notifications/n-1/read?sepia=1")] {
                #expect(try await client.json(method, uri).status == .unauthorized, "\(uri)")
            }
        }
    }

    @Test func aMisspeltFilterIsRefusedNotIgnored() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let tags = try await client.error(.get, "/v1/places/nearby?lat=38.713&lon=-9.145&tags=restaurant", expect: .badRequest)
            #expect(tags.code == "invalid_input" && tags.field == "tags")
            for query in ["q=a", "cursor=k", "lat=38.713&lon=-9.145&kinds=gem"] {
                let refused = try await client.json(.get, "/v1/places/nearby?lat=38.713&lon=-9.145&" + query)
                #expect(refused.status == .badRequest, "\(query)")
            }
            let token = try await client.signUp("ana")
            let page = try await client.error(.get, "/v1/groups?limt=5", token: token, expect: .badRequest)
            #expect(page.field == "limt")
            // What each route reads still works: a repeated `tag`, `limit` and `cursor`.
            let nearby = try await client.object(.get, "/v1/places/nearby?lat=38.713&lon=-9.145&radius=1&tag=a&tag=b&kind=gem", token: nil)
            #expect(nearby["count"] as? Int == 0)
            _ = try await client.object(.get, "/v1/groups?limit=5", token: token)
        }
    }

    @Test func theDocumentListsExactlyTheQueryParametersEachRouteReads() throws {
        let documented = Self.documentedQueryParameters(String(decoding: OpenAPIDocument.bytes, as: UTF8.self))
        let routes = try Self.routes()
        #expect(Set(documented.keys) == Set(routes.map { "\($0.method.rawValue) /\($0.path)" }))
        for route in routes {
            let key = "\(route.method.rawValue) /\(route.path)"
            #expect(Set(documented[key] ?? []) == Set(route.query.known), "\(key)")
        }
    }

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

    // MARK: - Helpers

    /// Every route of the API, over services of an empty database.
    static func routes() throws -> [Route] {
        let database = try PlacesDatabase.inMemory()
        let services = PlacesServices(
            repositories: database.repositories,
            hasher: try TestApp.hasher(),
            throttle: TestApp.throttle(),
            hashing: TestApp.hashing(),
            clock: { TestApp.now }
        )
        return Route.all(services: services, metrics: PlacesMetrics())
    }

    /// The query parameters each operation of the OpenAPI document lists, by `METHOD /path`: read from the document's
    /// own layout (`  /path:`, `    get:`, `      - name: x` followed by `        in: query`).
    static func documentedQueryParameters(_ document: String) -> [String: [String]] {
        var operations: [String: [String]] = [:]
        var path: String?
        var operation: String?
        var name: String?
        var inPaths = false
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" {
                inPaths = true
                continue
            }
            guard inPaths else { continue }
            if !line.hasPrefix(" "), !line.isEmpty { break }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
                operation = nil
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast().uppercased()
                guard ["GET", "POST", "PUT", "PATCH", "DELETE"].contains(method) else { continue }
                let key = "\(method) \(path)"
                operation = key
                if operations[key] == nil { operations[key] = [] }
            } else if operation != nil, line.hasPrefix("      - name: ") {
                name = String(line.dropFirst("      - name: ".count))
            } else if let operation, let given = name, line == "        in: query" {
                operations[operation, default: []].append(given)
                name = nil
            } else if line.hasPrefix("      - ") {
                name = nil
            }
        }
        return operations
    }
}

/// NULs sent where a client can put text: path ids and usernames, a login's username, texts and lists of a body
/// (nested too), query values and names, and the cursors of the lists. Each answers 400 `invalid_input` naming the
/// field; run on every engine (`PostgresFlowTests` runs it on PostgreSQL, whose text cannot hold a NUL).
enum NULProbe {
    static func run(_ client: any TestClientProtocol) async throws {
        let crew = try await client.crew("Friday crew", admin: "ana", members: ["ben"])
        let token = crew.ana

        let paths: [(HTTPRequest.Method, String, String)] = [
            (.get, "/v1/groups/g%00x", "id"),
            (.get, "/v1/decisions/d%00x", "id"),
            (.get, "/v1/collections/%00", "id"),
            (.post, "/v1/notifications/n%00/read", "id"),
            (.post, "/v1/friends/requests/ben%00/accept", "username"),
            (.post, "/v1/friends/requests/ben%00/decline", "username"),
            (.delete, "/v1/friends/ben%00", "username"),
            (.post, "/v1/me/invitations/g%00/accept", "id"),
            (.post, "/v1/me/invitations/g%00/decline", "id"),
            (.delete, "/v1/groups/\(crew.id)/members/ben%00", "username"),
            (.get, "/v1/places/a%00b", "id"),
            (.delete, "/v1/places/a%00b/rating", "id"),
        ]
        for (method, uri, field) in paths {
            try await expectRefused(client, method, uri, token: token, field: field)
        }

        // The username of a login without a token, and texts of bodies, nested ones and lists' entries included.
        try await expectRefused(
            client,
            .post,
            "/v1/auth/login",
            body: ["username": "ana\u{0}", "password": "correct horse battery"],
            field: "username"
        )
        let candidates = ["placeIds": ["lx-a-tasca"]]
        let bodies: [(HTTPRequest.Method, String, [String: Any], String)] = [
            (.post, "/v1/decisions", ["method": "random", "participants": ["ana", "ben\u{0}"], "candidates": candidates], "participants"),
            (.post, "/v1/decisions", ["method": "random", "candidates": ["placeIds": ["lx-a-tasca\u{0}"]]], "candidates.placeIds"),
            (
                .post, "/v1/decisions", ["method": "random", "candidates": ["nearby": ["lat": 38.7, "lon": -9.1, "kind": "\u{0}"]]],
                "candidates.nearby.kind"
            ),
            (.post, "/v1/decisions", ["method": "random", "groupId": "\(crew.id)\u{0}", "candidates": candidates], "groupId"),
            (.post, "/v1/friends/requests", ["username": "ben\u{0}"], "username"),
            (.post, "/v1/groups/\(crew.id)/invitations", ["username": "\u{0}"], "username"),
            (.post, "/v1/groups/\(crew.id)/leave", ["successor": "ben\u{0}"], "successor"),
            (.post, "/v1/collections", ["name": "Din\u{0}ner"], "name"),
            (.patch, "/v1/me/settings", ["language": "en\u{0}"], "language"),
        ]
        for (method, uri, body, field) in bodies {
            try await expectRefused(client, method, uri, token: token, body: body, field: field)
        }

        // Query values and names, the user search's `q`.
        try await expectRefused(client, .get, "/v1/users/search?q=an%00", token: token, field: "q")
        try await expectRefused(client, .get, "/v1/places/search?q=caf%00", field: "q")
        try await expectRefused(client, .get, "/v1/places/nearby?lat=38.7&lon=-9.1&cuisine=a%00", field: "cuisine")
        try await expectRefused(client, .get, "/v1/places/nearby?lat=38.7&lon=-9.1&tag=a%00", field: "tag")

        // The cursors of the lists: NUL in the text, and a well-formed cursor whose key holds a NUL (in each part, for
        // one to four parts, so that the list's own number of parts is among them).
        let lists = [
            "/v1/friends?", "/v1/friends/requests?", "/v1/friends/requests?direction=sent&", "/v1/groups?", "/v1/me/invitations?",
            "/v1/collections?", "/v1/decisions?", "/v1/notifications?", "/v1/me/favorites?", "/v1/places/search?q=tasca&",
            "/v1/users/search?q=an&",
        ]
        for list in lists {
            try await expectRefused(client, .get, list + "cursor=k%00", token: token, field: "cursor")
            for parts in 1...4 {
                try await expectRefused(client, .get, list + "cursor=" + cursor(parts: parts), token: token, field: "cursor")
            }
        }
    }

    /// A cursor as the server writes one (`k` and the base64url of a JSON list) whose `parts` parts each hold a NUL.
    static func cursor(parts: Int) -> String {
        let key = (0..<parts).map { _ in #""1\u0000""# }.joined(separator: ",")
        return "k"
            + Data("[\(key)]".utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func expectRefused(
        _ client: any TestClientProtocol,
        _ method: HTTPRequest.Method,
        _ uri: String,
        token: String? = nil,
        body: [String: Any]? = nil,
        field: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let response = try await client.json(method, uri, token: token, body: body)
        #expect(response.status == .badRequest, "\(method) \(uri): \(String(buffer: response.body))", sourceLocation: sourceLocation)
        let error = try TestApp.error(response.body)
        #expect(error.code == "invalid_input" && error.field == field, "\(method) \(uri): \(error)", sourceLocation: sourceLocation)
    }
}
