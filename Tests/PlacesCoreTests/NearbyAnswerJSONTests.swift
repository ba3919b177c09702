import Foundation
import GeoIndex
import Testing

@testable import PlacesCore

/// The nearby answer's JSON and GeoJSON, written from the JSON the index keeps for each place, must be byte for byte
/// what `PlacesJSON.makeEncoder()` writes for the same fields stored in plain structs (as answers were made before).
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
            var summary = PlaceSummary(
                id: text(&random),
                kind: Bool.random(using: &random) ? .gem : .restaurant,
                name: text(&random),
                coordinate: Coordinate(latitude: number(&random), longitude: number(&random)),
                city: Bool.random(using: &random) ? text(&random) : nil
            )
            summary.cuisine = Bool.random(using: &random) ? text(&random) : nil
            summary.tags = (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) }
            summary.priceLevel = Bool.random(using: &random) ? Int.random(in: 1...4, using: &random) : nil
            let ratings = Bool.random(using: &random) ? 0 : Int.random(in: 1...100_000, using: &random)
            summary.rating = RatingAggregate(count: ratings, sum: Int.random(in: ratings...5 * ratings, using: &random))
            if Bool.random(using: &random) {
                summary.photoCount = Int.random(in: 1...40, using: &random)
                summary.coverPhotoID = Photo.makeID()
            }
            return NearbyPlace(
                summary: summary,
                distanceMeters: abs(number(&random)),
                openStatus: [nil, .open, .closed, .unknown].randomElement(using: &random)!
            )
        }
        return NearbyAnswer(query: query, places: places)
    }

    /// The two ways a nearby answer is written, each with the reference it must match and how many random answers
    /// (from which seed) check it.
    enum Format: CaseIterable, Sendable {
        case json, geoJSON

        var seed: UInt64 { self == .json ? 20_261_123 : 20_261_124 }
        var answers: Int { self == .json ? 500 : 300 }

        func written(_ answer: NearbyAnswer) -> [UInt8] { self == .json ? answer.json() : answer.geoJSON() }

        func reference(_ answer: NearbyAnswer, _ encoder: JSONEncoder) throws -> Data {
            try encoder.encode(ReferenceAnswer(answer, as: self))
        }
    }

    @Test(arguments: Format.allCases)
    func writerMatchesTheEncoderOnRandomAnswers(_ format: Format) throws {
        var random = SplitMix64(seed: format.seed)
        let encoder = PlacesJSON.makeEncoder()
        for _ in 0..<format.answers {
            let answer = try Self.answer(&random)
            let expected = try format.reference(answer, encoder)
            let written = format.written(answer)
            #expect(written == Array(expected), "\(String(decoding: written, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
        }
    }

    @Test func writtenAnswerDecodesToTheSameValue() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<50 {
            let answer = try Self.answer(&random)
            #expect(try JSONDecoder().decode(ReferenceAnswer.self, from: Data(answer.json())) == ReferenceAnswer(answer, as: .json))
        }
    }

    @Test func numbersAreWrittenAsTheirDescriptionWithoutATrailingPointZero() {
        var random = SplitMix64(seed: 11)
        for _ in 0..<2_000 {
            let value = Self.number(&random) * (Bool.random(using: &random) ? 1 : -1)
            var writer = JSONWriter()
            writer.number(value)
            var expected = value.description
            if expected.hasSuffix(".0") { expected.removeLast(2) }
            #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
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

/// What a nearby answer looked like when `JSONEncoder` wrote it from stored fields, in either format: the reference its
/// bytes keep to. Both carry the answer's own fields at the top; JSON lists the places beside them, GeoJSON makes them
/// a FeatureCollection (the fields its foreign members) of one Point feature a place.
struct ReferenceAnswer: Codable, Equatable {
    struct Geometry: Codable, Equatable {
        var coordinates: [Double]
        var type = "Point"
    }

    struct Feature: Codable, Equatable {
        var geometry: Geometry
        var id: String
        var properties: ReferencePlace
        var type = "Feature"
    }

    var center: NearbyAnswer.Center
    var radiusMiles: Double
    var radiusMeters: Double
    var radiusKm: Double
    var capped: Bool
    var count: Int
    /// JSON's places; nil (left out) in GeoJSON.
    var places: [ReferencePlace]?
    /// GeoJSON's features; nil (left out) in JSON.
    var features: [Feature]?
    /// GeoJSON's `FeatureCollection`; nil (left out) in JSON.
    var type: String?

    init(_ answer: NearbyAnswer, as format: NearbyAnswerJSONTests.Format) {
        center = answer.center
        radiusMiles = answer.radiusMiles
        radiusMeters = answer.radiusMeters
        radiusKm = answer.radiusKm
        capped = answer.capped
        count = answer.count
        switch format {
        case .json:
            places = answer.places.map(ReferencePlace.init)
        case .geoJSON:
            features = answer.places.map { place in
                Feature(geometry: Geometry(coordinates: [place.lon, place.lat]), id: place.id, properties: ReferencePlace(place))
            }
            type = "FeatureCollection"
        }
    }
}

/// One place as the encoder wrote it, its distances made here from the metres (not by the code under test).
struct ReferencePlace: Codable, Equatable {
    var id: String
    var name: String
    var kind: PlaceKind
    var lat: Double
    var lon: Double
    var city: String?
    var distanceMeters: Double
    var distanceMiles: Double
    var distanceKm: Double
    var tags: [String]
    var cuisine: String?
    var priceLevel: Int?
    var ratingAverage: Double?
    var ratingCount: Int
    var score: Double
    var openStatus: OpenStatus?
    var photoCount: Int?
    var coverPhotoURL: String?

    init(_ place: NearbyPlace) {
        let summary = place.summary
        id = summary.id
        name = summary.name
        kind = summary.kind
        lat = summary.coordinate.latitude
        lon = summary.coordinate.longitude
        city = summary.city
        distanceMeters = place.distanceMeters
        distanceMiles = place.distanceMeters / 1_609.344
        distanceKm = place.distanceMeters / 1_000
        tags = summary.tags
        cuisine = summary.cuisine
        priceLevel = summary.priceLevel
        ratingAverage = summary.rating.count > 0 ? Double(summary.rating.sum) / Double(summary.rating.count) : nil
        ratingCount = summary.rating.count
        score = summary.rating.score
        openStatus = place.openStatus
        photoCount = summary.photoCount > 0 ? summary.photoCount : nil
        coverPhotoURL = summary.coverPhotoID.map { "/v1/photos/\($0)" }
    }
}
