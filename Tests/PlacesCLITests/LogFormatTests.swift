import Foundation
import Logging
import Testing

@testable import PlacesCLI

@Suite("--log-format json")
struct LogFormatTests {
    @Test func aLineIsOneJSONObjectWithTheTextLinesFields() throws {
        let line = JSONLogHandler.line(
            timestamp: "2026-11-23T01:37:29.123Z",
            level: .info,
            label: "places",
            source: "PlacesHTTP",
            message: "GET /v1/places/nearby 200 \"quoted\"\n\u{1}",
            metadata: ["request_id": "abc-123", "status": "200", "latency_ms": .stringConvertible(0.837), "message": "kept aside",
                "nested": ["list": ["a", "b"]]]
        )
        #expect(line.hasSuffix("}\n") && line.dropLast().allSatisfy { $0 != "\n" })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["timestamp"] as? String == "2026-11-23T01:37:29.123Z")
        #expect(object["level"] as? String == "info" && object["label"] as? String == "places" && object["source"] as? String == "PlacesHTTP")
        #expect(object["message"] as? String == "GET /v1/places/nearby 200 \"quoted\"\n\u{1}")
        #expect(object["request_id"] as? String == "abc-123" && object["status"] as? String == "200" && object["latency_ms"] as? String == "0.837")
        #expect(object["metadata.message"] as? String == "kept aside")
        #expect((object["nested"] as? [String: Any])?["list"] as? [String] == ["a", "b"])
    }

    @Test func anUnknownFormatIsRefused() throws {
        let places = try PlacesBinary()
        defer { try? FileManager.default.removeItem(at: places.folder) }
        let refused = try places.run(["serve", "--log-format", "yaml", "--port", "0"])
        #expect(refused.status == 64 && refused.err.contains("invalid_input (log-format)"))
    }
}
