import Foundation
import PlacesCore
import Testing

@testable import PlacesHTTP

@Suite("Query strings")
struct QueryParametersTests {
    /// Pieces of query text: plain, `+`, whole and broken percent-escapes, UTF-8 both escaped and raw, and an
    /// escaped byte that is no UTF-8 on its own.
    static let pieces = ["a", "Z", "7", ".", "-", "+", "%20", "%2B", "%2b", "%C3%A9", "é", "%", "%4", "%zz", "%E2%82", "%AC", "%FF", "~"]

    @Test func decodingMatchesFoundationOnRandomText() throws {
        var random = SplitMix64(seed: 11)
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...8, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            let expected = text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            let decoded = try? QueryParameters.decode(Substring(text), field: "q")
            #expect(decoded == expected, "\(text)")
        }
    }

    @Test func namesAndValuesAreDecodedAndARepeatedNameIsRefused() throws {
        let parameters = try QueryParameters("q=caf%C3%A9+zo%C3%AB&tag=a&tag=b%2Bc&lat=1", repeatable: ["tag"])
        #expect(parameters["q"] == "café zoë")
        #expect(parameters.all("tag") == ["a", "b+c"])
        #expect(parameters["lat"] == "1")
        #expect(throws: PlacesError.self) { try QueryParameters("lat=1&lat=2") }
        #expect(throws: PlacesError.self) { try QueryParameters("q=%E2%82") }
    }
}
