import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import PlacesHTTP

@Suite("Media types, caching and sniffing headers, and stale tokens at the edge")
struct EdgeProtectionTests {
    static let places = [TestApp.place("gem-1", 10, 10)]

    /// Sends `body` as it is, with `contentType` (none when nil) and an optional bearer token.
    static func send(
        _ client: some TestClientProtocol,
        _ method: HTTPRequest.Method,
        _ uri: String,
        body: String?,
        contentType: String?,
        token: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let contentType { headers[.contentType] = contentType }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { $0 }
    }

    /// What an HTML form on another site can post, and near misses of `application/json`.
    @Test(arguments: [
        "text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", nil,
        "application/jsonp", "text/json", "application/json-seq", "application/merge-patch+json",
    ])
    func aBodyNotSentAsJSONIs415EvenWhenItIsJSON(contentType: String?) async throws {
        try await TestApp.withClient([]) { client in
            let token = try await client.signUp("mallory")
            let requests: [(uri: String, body: String, token: String?)] = [
                ("/v1/auth/login", #"{"username":"mallory","password":"correct horse battery"}"#, nil),
                ("/v1/auth/register", #"{"username":"eve","email":"eve@example.com","password":"a long password"}"#, nil),
                ("/v1/places", #"{"kind":"gem","name":"Posted by a form","lat":10,"lon":10}"#, token),
            ]
            for request in requests {
                let response = try await Self.send(client, .post, request.uri, body: request.body, contentType: contentType, token: request.token)
                #expect(response.status == .unsupportedMediaType, "\(request.uri): \(String(buffer: response.body))")
                #expect(try TestApp.error(response.body).code == "unsupported_media_type")
            }
            // Nothing happened: no account for eve, no place.
            let eve = try await client.json(.post, "/v1/auth/login", body: ["username": "eve", "password": "a long password"])
            #expect(eve.status == .unauthorized)
            let search = try await client.json(.get, "/v1/places/search?q=form")
            #expect(search.status == .ok)
            #expect((try TestApp.object(search.body)["items"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(arguments: ["application/json", "application/json; charset=utf-8", "Application/JSON", " application/json ;charset=UTF-8"])
    func jsonIsAcceptedInAnyCaseAndWithParameters(contentType: String) async throws {
        try await TestApp.withClient([]) { client in
            let body = #"{"username":"eve","email":"eve@example.com","password":"a long password"}"#
            let registered = try await Self.send(client, .post, "/v1/auth/register", body: body, contentType: contentType)
            #expect(registered.status == .created)
            let login = #"{"username":"eve","password":"a long password"}"#
            #expect(try await Self.send(client, .post, "/v1/auth/login", body: login, contentType: contentType).status == .ok)
        }
    }

    @Test func aRequestWithoutABodyNeedsNoContentType() async throws {
        try await TestApp.withClient([]) { client in
            let ana = try await client.signUp("ana")
            let created = try await client.json(.post, "/v1/groups", token: ana, body: ["name": "Lunch"])
            let group = try #require(try TestApp.object(created.body)["id"] as? String)
            // Leaving takes an optional body; a text one is still refused, no body at all needs no header.
            let text = try await Self.send(client, .post, "/v1/groups/\(group)/leave", body: "successor=ben", contentType: "text/plain", token: ana)
            #expect(text.status == .unsupportedMediaType)
            let bare = try await Self.send(client, .post, "/v1/groups/\(group)/leave", body: nil, contentType: nil, token: ana)
            #expect(bare.status == .noContent)
            // An empty body where one is required stays a 400 about the JSON.
            let empty = try await Self.send(client, .post, "/v1/auth/login", body: "", contentType: nil)
            #expect(empty.status == .badRequest)
        }
    }

    @Test func everyAnswerSaysNosniffAndPrivateAnswersSayNoStore() async throws {
        try await TestApp.withClient(Self.places) { client in
            let registered = try await client.json(
                .post,
                "/v1/auth/register",
                body: [
                    "username": "ada", "email": "ada@example.com", "password": "a long password",
                ]
            )
            let login = try await client.json(.post, "/v1/auth/login", body: ["username": "ada", "password": "a long password"])
            let token = try #require(try TestApp.object(login.body)["token"] as? String)
            let privateAnswers: [(String, TestResponse)] = [
                ("register", registered),
                ("login", login),
                ("failed login", try await client.json(.post, "/v1/auth/login", body: ["username": "ada", "password": "wrong one"])),
                ("me", try await client.json(.get, "/v1/me", token: token)),
                ("a signed-in 404", try await client.json(.get, "/v1/places/missing", token: token)),
                ("a signed-in 400", try await client.json(.patch, "/v1/me/settings", token: token, body: ["units": 5])),
                ("a bad token's 401", try await client.json(.get, "/v1/me", token: "not-a-token")),
                // Every 401: the refusal of a route that answers a signed-in caller is not kept either.
                ("no token's 401", try await client.json(.get, "/v1/me")),
                ("a signed-in place", try await client.json(.get, "/v1/places/gem-1", token: token)),
            ]
            for (name, response) in privateAnswers {
                #expect(response.headers[.cacheControl] == "no-store", "\(name): \(response.status)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(name)")
            }
            let publicAnswers: [(String, TestResponse)] = [
                ("health", try await client.json(.get, "/health")),
                ("metrics", try await client.json(.get, "/metrics")),
                ("openapi", try await client.json(.get, "/openapi.yaml")),
                ("a place", try await client.json(.get, "/v1/places/gem-1")),
                ("no route", try await client.json(.get, "/no/such/route")),
                ("wrong method", try await client.json(.delete, "/health")),
                ("too long", try await client.json(.get, "/v1/places/nearby?q=" + String(repeating: "a", count: 8_200))),
            ]
            for (name, response) in publicAnswers {
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(name): \(response.status)")
                // Anonymous answers are never no-store; a place (like the map's answers) may be kept briefly.
                #expect(response.headers[.cacheControl] == (name == "a place" ? "public, max-age=10" : nil), "\(name)")
            }
        }
    }

    @Test func loginAndRegistrationIgnoreAStaleOrBrokenToken() async throws {
        try await TestApp.withClient([]) { client in
            let stale = try await client.signUp("ada", password: "a long password")
            #expect(try await client.json(.post, "/v1/auth/logout", token: stale).status == .noContent)
            #expect(try await client.json(.get, "/v1/me", token: stale).status == .unauthorized)
            // A client that always sends its saved token still gets a new one.
            let login = try await client.json(.post, "/v1/auth/login", token: stale, body: ["username": "ada", "password": "a long password"])
            #expect(login.status == .ok)
            let fresh = try #require(try TestApp.object(login.body)["token"] as? String)
            #expect(try await client.json(.get, "/v1/me", token: fresh).status == .ok)
            // A malformed header or another scheme is ignored there too, and so is it on sign-up.
            for header in ["Bearer", "Basic YWRhOnB3", "Bearer \(String(repeating: "x", count: 300))"] {
                let retry = try await client.json(
                    .post,
                    "/v1/auth/login",
                    body: ["username": "ada", "password": "a long password"],
                    headers: [.authorization: header]
                )
                #expect(retry.status == .ok, "\(header.prefix(20))")
            }
            let signUp = try await client.json(
                .post,
                "/v1/auth/register",
                token: stale,
                body: [
                    "username": "bob", "email": "bob@example.com", "password": "a long password",
                ]
            )
            #expect(signUp.status == .created)
        }
    }
}
