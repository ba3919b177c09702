import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import PlacesHTTP

@Suite("Hostile or broken clients on a live server")
struct HostileClientTests {
    /// An idle timeout far beyond every guard here: a connection that closes did so because the server chose to.
    static let settings = ServerSettings(host: "127.0.0.1", port: 0, idleTimeout: .seconds(600))

    /// The head of a request to `path` announcing `length` bytes of JSON.
    static func head(_ path: String, contentLength length: Int) -> String {
        "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n\r\n"
    }

    @Test func aBodyAnnouncedAboveTheLimitIs413BeforeItIsSentAndTheConnectionCloses() async throws {
        let app = try await TestApp.togetherServices([], settings: Self.settings).app
        try await app.test(.live) { client in
            let port = try #require(client.port)
            // Only the head is sent: the answer and the close must come without a byte of the body.
            let answer = try await RawConnection.exchange(Self.head("/v1/auth/register", contentLength: 100_000_000), port: port, ending: .keepOpen)
            #expect(answer.hasPrefix("HTTP/1.1 413 "), "\(answer)")
            #expect(answer.lowercased().contains("\r\nconnection: close\r\n"))
            #expect(answer.contains(#""code":"payload_too_large""#))
            // The server still answers others.
            #expect(try await client.json(.get, "/health").status == .ok)
        }
    }

    @Test func aChunkedBodyThatOutgrowsTheLimitIs413AndTheConnectionCloses() async throws {
        let app = try await TestApp.togetherServices([], settings: Self.settings).app
        try await app.test(.live) { client in
            let port = try #require(client.port)
            // No Content-Length to refuse early: one chunk over 1 MiB, then the client stalls without the last chunk.
            let size = 1_048_576 + 1
            let request =
                "POST /v1/auth/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                + String(size, radix: 16) + "\r\n" + String(repeating: " ", count: size) + "\r\n"
            let answer = try await RawConnection.exchange(request, port: port, ending: .keepOpen)
            #expect(answer.hasPrefix("HTTP/1.1 413 "), "\(answer.prefix(200))")
            #expect(answer.contains(#""code":"payload_too_large""#))
        }
    }

    @Test(arguments: [RawConnection.Ending.close, .halfClose])
    func aBodyCutShortIsTheClientsFailureNotTheServers(ending: RawConnection.Ending) async throws {
        let app = try await TestApp.togetherServices([], settings: Self.settings).app
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let label = #"http_requests_total{route="/v1/auth/login",method="POST",status="#
            let refused = label + #""400"}"#
            let failed = label + #""500"}"#
            let before = try Self.counters()[refused] ?? 0
            // Half of the 100 bytes announced, then the client goes away.
            let half = #"{"username": "grace", "password": "#.padding(toLength: 50, withPad: " ", startingAt: 0)
            let answer = try await RawConnection.exchange(Self.head("/v1/auth/login", contentLength: 100) + half, port: port, ending: ending)
            if ending == .halfClose {
                // Still listening: it gets the error body.
                #expect(answer.hasPrefix("HTTP/1.1 400 "), "\(answer)")
                #expect(answer.contains(#""code":"invalid_input""#))
            }
            // The server counts the request once it finished with it: look until it shows up.
            var samples = try Self.counters()
            var looks = 1
            while (samples[refused] ?? 0) <= before, samples[failed] == nil, looks < 30 {
                try await Task.sleep(for: .seconds(1))
                samples = try Self.counters()
                looks += 1
            }
            #expect(samples[failed] == nil)
            #expect((samples[refused] ?? 0) > before)
        }
    }

    /// A head above what the decoder reads gets the API's JSON error, not the framework's bare 400: 414 for a request
    /// line above 16 KiB (as for one of 8-16 KiB), 400 `invalid_input` for header fields above their bounds; then the
    /// connection closes. Also on a kept-alive connection whose first request was answered (a request pipelined behind
    /// an answer still being written keeps Hummingbird's bare 400).
    @Test(arguments: [20_000, 200_000])
    func aHeadAboveTheDecodersBoundsGetsAJSONError(size: Int) async throws {
        let app = try await TestApp.togetherServices([], settings: Self.settings).app
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let target = "/v1/places/nearby?lat=10&lon=10&q=" + String(repeating: "a", count: size)
            let long = try await RawConnection.exchange("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: port, ending: .keepOpen)
            #expect(long.hasPrefix("HTTP/1.1 414 "), "\(long.prefix(300))")
            #expect(long.contains(#""code":"uri_too_long""#))
            #expect(long.lowercased().contains("\r\ncontent-type: application/json\r\n"))
            #expect(long.lowercased().contains("\r\nconnection: close\r\n"))

            let header = "X-Filler: " + String(repeating: "b", count: size) + "\r\n"
            let fat = try await RawConnection.exchange("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\(header)\r\n", port: port, ending: .keepOpen)
            #expect(fat.hasPrefix("HTTP/1.1 400 "), "\(fat.prefix(300))")
            #expect(fat.contains(#""code":"invalid_input""#))

            // The server still answers others; and on a kept-alive connection, after an answered request, the next
            // one is refused as above.
            #expect(try await client.json(.get, "/health").status == .ok)
            try await client.execute(uri: target, method: .get) { response in
                #expect(response.status == .uriTooLong)
                #expect((try? TestApp.error(response.body).code) == "uri_too_long")
            }
        }
    }

    /// The request counters `GET /metrics` shows now, read from the process's one metrics backend without rendering:
    /// a render also sets the gauges, which `MetricsEndpointTests` checks against its own app at the same time.
    static func counters() throws -> [String: Double] {
        try MetricsEndpointTests.samples(String(decoding: MetricsEndpointTests.metrics.registry.emitToBuffer(), as: UTF8.self))
    }
}
