import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import PlacesHTTP

@Suite("HTTP methods, encodings and negotiation")
struct HTTPBehaviourTests {
    static let places = [TestApp.place("a:b", 10, 10), TestApp.place("gem-1", 10, 10.001)]

    @Test func everyAnswerCarriesARequestID() async throws {
        let app = try await TestApp.make(Self.places)
        let name = RequestLogMiddleware<PlacesRequestContext>.header
        try await app.test(.router) { client in
            // A sane id from the client is kept; a missing or unsafe one is replaced by a fresh one.
            try await client.execute(uri: "/v1/places/gem-1", method: .get, headers: [name: "trace-42.a_b"]) { response in
                #expect(response.headers[name] == "trace-42.a_b")
            }
            var seen: Set<String> = []
            for (uri, sent) in [("/v1/places/gem-1", nil), ("/v1/places/none", "bad id\u{7}"), ("/v1/nowhere", String(repeating: "x", count: 129))] {
                let headers: HTTPFields = sent.map { [name: $0] } ?? [:]
                try await client.execute(uri: uri, method: .get, headers: headers) { response in
                    let id = try #require(response.headers[name])
                    #expect(id.hasPrefix("r-") && id.count == 18, "\(uri): \(id)")
                    seen.insert(id)
                }
            }
            #expect(seen.count == 3)
        }
    }

    @Test func browserAppsFromAllowedOriginsOnly() async throws {
        let settings = ServerSettings(host: "127.0.0.1", port: 0, corsOrigins: ["https://app.example.com"])
        let app = try await TestApp.togetherServices(Self.places, settings: settings).app
        try await app.test(.router) { client in
            let preflight: HTTPFields = [.origin: "https://app.example.com", .accessControlRequestMethod: "POST"]
            try await client.execute(uri: "/v1/places", method: .options, headers: preflight) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[.accessControlAllowOrigin] == "https://app.example.com")
                #expect(response.headers[.accessControlAllowMethods]?.contains("PATCH") == true)
                #expect(response.headers[.accessControlAllowHeaders]?.contains("Authorization") == true)
            }
            // A page reading a live stream with fetch resumes it with Last-Event-ID.
            let streamPreflight: HTTPFields = [
                .origin: "https://app.example.com", .accessControlRequestMethod: "GET",
                .accessControlRequestHeaders: "authorization, last-event-id",
            ]
            try await client.execute(uri: "/v1/notifications/events", method: .options, headers: streamPreflight) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[.accessControlAllowHeaders]?.contains("Last-Event-ID") == true)
            }
            // Errors carry the header too, so the app can read the error body.
            try await client.execute(uri: "/v1/places/none", method: .get, headers: [.origin: "https://app.example.com"]) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.accessControlAllowOrigin] == "https://app.example.com")
                #expect(response.headers[.accessControlExposeHeaders]?.contains("X-Request-ID") == true)
            }
            // Nearby varies by Accept (JSON or GeoJSON) and, for an allowed origin, by Origin too.
            try await client.execute(uri: "/v1/places/nearby?lat=0&lon=0", method: .get, headers: [.origin: "https://app.example.com"]) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.vary] == "Accept, Origin")
            }
            // Without Origin (a phone, curl) the answer has no CORS headers, so it varies by Origin too: a cache must
            // not give it to a browser app.
            try await client.execute(uri: "/v1/places/clusters?bbox=-1,-1,1,1&zoom=3", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == nil)
                #expect(response.headers[.vary] == "Origin")
            }
            // Another origin gets nothing: its preflight is an OPTIONS like any other.
            let stranger: HTTPFields = [.origin: "https://evil.example", .accessControlRequestMethod: "POST"]
            try await client.execute(uri: "/v1/places", method: .options, headers: stranger) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
        }
        // By default no origin is allowed.
        let closed = try await TestApp.make(Self.places)
        try await closed.test(.router) { client in
            let preflight: HTTPFields = [.origin: "https://app.example.com", .accessControlRequestMethod: "GET"]
            try await client.execute(uri: "/v1/places/gem-1", method: .options, headers: preflight) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
            try await client.execute(uri: "/v1/places/gem-1", method: .get, headers: [.origin: "https://app.example.com"]) { response in
                #expect(response.status == .ok && response.headers[.accessControlAllowOrigin] == nil)
                #expect(response.headers[.vary]?.contains("Origin") != true)
            }
        }
    }

    @Test func overlongTargetsAre414() async throws {
        try await TestApp.withClient(Self.places) { client in
            let long = "/v1/places/nearby?lat=10&lon=10&q=" + String(repeating: "a", count: 8_200)
            let error = try await client.error(.get, long, expect: .uriTooLong)
            #expect(error.code == "uri_too_long")
        }
    }

    @Test func headAnswersLikeGetWithoutABody() async throws {
        try await TestApp.withClient(Self.places) { client in
            try await client.execute(uri: "/v1/places/gem-1", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(response.body.readableBytes == 0)
            }
        }
    }

    /// HEAD sends the header fields GET would, its `Content-Length` too (it said 0 once), and no body: over a live
    /// server, a GET after it on the same connection reads its own answer whole.
    @Test(arguments: ["/v1/places/gem-1", "/openapi.yaml", "/v1/places/nearby?lat=10&lon=10"])
    func headSendsTheLengthGetWould(uri: String) async throws {
        try await TestApp.make(Self.places).test(.live) { client in
            let length = try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok)
                return try #require(response.headers[.contentLength])
            }
            #expect(Int(length) ?? 0 > 0)
            try await client.execute(uri: uri, method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] == length)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.headers[.contentLength] == length)
                #expect(String(response.body.readableBytes) == length)
            }
        }
    }

    @Test(arguments: [HTTPRequest.Method.post, .put, .patch, .delete, .options, .trace, HTTPRequest.Method("QUERY")].compactMap { $0 })
    func otherMethodsAre405WithAllow(method: HTTPRequest.Method) async throws {
        try await TestApp.withClient([]) { client in
            let routes = [
                ("/health", "GET, HEAD"), ("/openapi.yaml", "GET, HEAD"), ("/v1/places/nearby", "GET, HEAD"),
                ("/v1/places/search", "GET, HEAD"), ("/v1/places/x", "GET, HEAD, PATCH, DELETE"), ("/v1/places", "POST"),
                ("/v1/me", "GET, HEAD, PATCH, DELETE"), ("/v1/me/settings", "GET, HEAD, PUT, PATCH"),
                ("/v1/places/x/rating", "PUT, DELETE"), ("/v1/auth/login", "POST"),
            ]
            for (uri, allowed) in routes where !allowed.split(separator: ", ").contains(Substring(method.rawValue)) {
                try await client.execute(uri: uri, method: method) { response in
                    #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                    #expect(response.headers[.allow] == allowed)
                    let error = try TestApp.error(response.body)
                    #expect(error.code == "method_not_allowed")
                }
            }
            try await client.execute(uri: "/no/such/route", method: method) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func percentEncodedIDsAndParameterNamesAreDecoded() async throws {
        try await TestApp.withClient(Self.places) { client in
            let place = try await client.object(.get, "/v1/places/a%3Ab", token: nil)
            #expect(place["id"] as? String == "a:b")
            let nearby = try await client.object(.get, "/v1/places/nearby?l%61t=10&lon=10&radius=1", token: nil)
            #expect(nearby["count"] as? Int == 2)
        }
    }

    @Test func aParameterGivenTwiceIsRefused() async throws {
        try await TestApp.withClient([]) { client in
            let error = try await client.error(.get, "/v1/places/nearby?lat=1&lat=2&lon=1", expect: .badRequest)
            #expect(error.field == "lat")
        }
    }

    @Test(arguments: [
        ("application/geo+json", "application/geo+json"),
        ("application/geo+json;q=0", "application/json"),
        ("application/json, application/geo+json;q=0.1", "application/json"),
        ("application/geo+json, application/json", "application/geo+json"),
        ("text/html", "application/json"),
    ])
    func acceptIsNegotiatedByQuality(accept: String, contentType: String) async throws {
        try await TestApp.withClient(Self.places) { client in
            try await client.execute(uri: "/v1/places/nearby?lat=10&lon=10", method: .get, headers: [.accept: accept]) { response in
                #expect(response.headers[.contentType] == contentType)
            }
        }
    }
}
