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
        let names = QueryParameters.Names(["q", "tag", "lat"], repeatable: ["tag"])
        let parameters = try QueryParameters("q=caf%C3%A9+zo%C3%AB&tag=a&tag=b%2Bc&lat=1", accepting: names)
        #expect(parameters["q"] == "café zoë")
        #expect(parameters.all("tag") == ["a", "b+c"])
        #expect(parameters["lat"] == "1")
        #expect(throws: PlacesError.self) { try QueryParameters("lat=1&lat=2", accepting: names) }
        #expect(throws: PlacesError.self) { try QueryParameters("q=%E2%82", accepting: names) }
    }

    @Test func aNameTheRouteDoesNotReadIsRefusedNamingItAndTheExpectedOnes() throws {
        let names: QueryParameters.Names = ["q", "limit"]
        let error = try #require(throws: PlacesError.self) { try QueryParameters("q=a&limt=3", accepting: names) }
        #expect(error.code == .invalidInput && error.field == "limt")
        #expect(error.message.contains("expected one of: q, limit"))
        // Decoded first: `l%69mit` is `limit`.
        #expect(try QueryParameters("l%69mit=3", accepting: names)["limit"] == "3")
        let none = try #require(throws: PlacesError.self) { try QueryParameters("x", accepting: []) }
        #expect(none.field == "x" && none.message.contains("reads no query parameters"))
        #expect(try QueryParameters("", accepting: [])["x"] == nil)
    }

    @Test(arguments: ["q=a%00b", "q%00=a", "q=%00", "%00"])
    func aNULInANameOrAValueIsRefused(query: String) throws {
        let error = try #require(throws: PlacesError.self) { try QueryParameters(query, accepting: ["q"]) }
        #expect(error.code == .invalidInput)
        #expect(error.message.contains("control character"))
    }
}
