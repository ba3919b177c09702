import Foundation
import GeoIndex
import Testing

@testable import PlacesCore

/// The hand-written JSON of a nearby answer must be byte for byte what `PlacesJSON.makeEncoder()` writes.
@Suite struct NearbyAnswerJSONTests {
    /// Text with what needs escaping (quotes, backslashes, every control character), slashes, accents and emoji.
    static let alphabet: [String] =
        ["a", "Z", "0", " ", "\"", "\\", "/", "é", "ß", "😀", "\u{2028}", "\u{7F}", "\u{0}"]
        + (1..<0x20).map { String(UnicodeScalar(UInt8($0))) }

    static func text(_ random: inout SplitMix64) -> String {
        String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined())
    }

    static func number(_ random: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: Double(Int.random(in: -1_000...1_000, using: &random))
        case 1: Double.random(in: -180...180, using: &random)
        case 2: Double.random(in: 0...1e-4, using: &random)
        case 3: Double.random(in: 1e15...1e22, using: &random)
        default: [0, -0.0, 0.1, 1609.344, 32_186.88, 5e-324, .greatestFiniteMagnitude].randomElement(using: &random)!
        }
    }

    static func answer(_ random: inout SplitMix64) throws -> NearbyAnswer {
        let query = try NearbyQuery(
            center: Coordinate(latitude: .random(in: -90...90, using: &random), longitude: .random(in: -180...180, using: &random)),
            radiusMiles: .random(in: 0.01...25, using: &random)
        )
        let places = (0..<Int.random(in: 0...6, using: &random)).map { _ in
            var place = NearbyPlace(
                summary: PlaceSummary(id: text(&random), kind: .gem, name: text(&random), coordinate: Coordinate(latitude: 0, longitude: 0)),
                distanceMeters: number(&random)
            )
            place.kind = Bool.random(using: &random) ? .gem : .restaurant
            place.lat = number(&random)
            place.lon = number(&random)
            place.city = Bool.random(using: &random) ? text(&random) : nil
            place.cuisine = Bool.random(using: &random) ? text(&random) : nil
            place.tags = (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) }
            place.priceLevel = Bool.random(using: &random) ? Int.random(in: 1...4, using: &random) : nil
            place.ratingAverage = Bool.random(using: &random) ? number(&random) : nil
            place.ratingCount = Int.random(in: 0...100_000, using: &random)
            place.score = number(&random)
            place.distanceMiles = number(&random)
            place.distanceKm = number(&random)
            place.openStatus = [nil, .open, .closed, .unknown].randomElement(using: &random)!
            return place
        }
        return NearbyAnswer(query: query, places: places)
    }

    @Test func writerMatchesTheEncoderOnRandomAnswers() throws {
        var random = SplitMix64(seed: 20_261_123)
        let encoder = PlacesJSON.makeEncoder()
        for _ in 0..<500 {
            let answer = try Self.answer(&random)
            let expected = try encoder.encode(answer)
            let written = answer.json()
            #expect(written == Array(expected), "\(String(decoding: written, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
        }
    }

    @Test func writtenAnswerDecodesToTheSameValue() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<50 {
            let answer = try Self.answer(&random)
            #expect(try JSONDecoder().decode(NearbyAnswer.self, from: Data(answer.json())) == answer)
        }
    }

    @Test func escapesAsTheEncoderDoes() {
        var writer = JSONWriter()
        writer.array { writer in
            writer.string("a\"b\\c/d\u{1}\u{1F}\n\r\t\u{8}\u{C}é")
            writer.number(5.0)
            writer.number(1e-5)
            writer.number(-0.0)
            writer.number(42)
            writer.bool(true)
        }
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"["a\"b\\c/d\u0001\u001f\n\r\t\b\fé",5,1e-05,-0,42,true]"#)
    }
}
