import Foundation
import Testing

@testable import PlacesCore

/// Random and mutated inputs for every parser that reads what a client or a seed file sends: each must answer
/// a value or a `PlacesError` (a row error for a bad seed row), never crash or hang. Deterministic: the same
/// seeds give the same inputs on every run, and a failure names the seed and the input.
@Suite("Fuzzed inputs")
struct InputFuzzTests {
    static let iterations = 400

    /// Bytes that tend to break parsers: quotes, separators, brackets, escapes, control and non-ASCII bytes.
    static let nasty: [[UInt8]] = [
        Array("\"".utf8), Array(",".utf8), Array(";".utf8), Array("\n".utf8), Array("\r\n".utf8), Array("{".utf8),
        Array("}".utf8), Array("[".utf8), Array("]".utf8), Array(":".utf8), Array("\\".utf8), Array("\\u00".utf8),
        Array("\\ud800".utf8), [0x00], [0x7F], Array("é".utf8), Array("🍜".utf8), [0xE2, 0x82], Array("1e999".utf8),
        Array("-0".utf8), Array("NaN".utf8), Array("null".utf8), Array("true".utf8), Array(" ".utf8), Array("\t".utf8),
        Array("9999999999999999999999".utf8),
    ]

    /// `input` changed a few times: bytes flipped, nasty bytes inserted, a span deleted or repeated, a tail cut.
    static func mutate(_ input: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0...Int(random.next() % 4) {
            let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
            switch random.next() % 6 {
            case 0 where !bytes.isEmpty: bytes[position] = UInt8(truncatingIfNeeded: random.next())
            case 1: bytes.insert(contentsOf: nasty[Int(random.next() % UInt64(nasty.count))], at: position)
            case 2 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int(random.next() % 16) + 1)
                bytes.removeSubrange(position..<end)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int(random.next() % 24) + 1)
                bytes.insert(contentsOf: bytes[position..<end], at: position)
            case 4: bytes = Array(bytes.prefix(position))
            default: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
            }
        }
        return bytes
    }

    static let seedFiles: [(extension: String, text: String)] = [
        ("csv", "id,name,kind,lat,lon,tags,cuisine,priceLevel,phone\nc1,\"Café, \"\"Uno\"\"\",restaurant,38.71,-9.14,a;b,Portuguese,2,+351 21 000\nc2,Miradouro,gem,38.7,-9.1,,,,\n"),
        ("json", #"[{"id":"j1","name":"Tasca","kind":"restaurant","lat":38.71,"lon":-9.14,"tags":["a","b"],"openingHours":{"mon":["08:00-14:00"]},"timeZone":"Europe/Lisbon"},{"name":"Gem","lat":1,"lon":2}]"#),
        ("geojson", #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"g1","geometry":{"type":"Point","coordinates":[-9.14,38.71]},"properties":{"name":"Jardim","kind":"gem","tags":"x;y"}}]}"#),
    ]

    @Test(arguments: 0..<3)
    func seedReadersAnswerRowsOrErrors(format: Int) throws {
        let (fileExtension, text) = Self.seedFiles[format]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("fuzz.\(fileExtension)").path
        var random = SplitMix64(seed: UInt64(format) &+ 0x5EED)
        var rows = 0
        var fileErrors = 0
        for iteration in 0..<Self.iterations {
            let bytes = Self.mutate(Array(text.utf8), &random)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                try SeedFileReader.read(path: path) { result in
                    if case .success(let record) = result {
                        _ = try? record.draft.validated(now: Date(timeIntervalSince1970: 0), seedSource: "fuzz")
                        rows += 1
                    }
                }
            } catch is PlacesError {
                fileErrors += 1
            } catch {
                Issue.record("iteration \(iteration): \(error) for \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
        }
        // Both outcomes occur, so the mutations reach past the first check.
        #expect(rows > 0 && fileErrors > 0, "rows \(rows), file errors \(fileErrors)")
    }

    @Test func jsonBodiesParseOrFailCleanly() {
        var random = SplitMix64(seed: 0xB0D1)
        var parsed = 0
        let bodies = [
            #"{"name":"Tiny Tacos","lat":37.76,"lon":-122.42,"tags":["x"],"priceLevel":1,"openingHours":{"fri":["18:00-02:00"]}}"#,
            #"{"ranking":["a","b"],"weights":{"a":1.5},"nested":[[],{},null,true,-1.5e3,"\u00e9\ud83c\udf5c"]}"#,
        ]
        for iteration in 0..<Self.iterations {
            let bytes = Self.mutate(Array(bodies[iteration % bodies.count].utf8), &random)
            guard case .object(let fields)? = try? JSONText.parse(bytes: bytes) else { continue }
            parsed += 1
            // A parsed body then meets the place rules, as POST /v1/places does.
            _ = try? PlaceDraft(fields: fields).validated(now: Date(timeIntervalSince1970: 0))
        }
        #expect(parsed > 0)
    }

    @Test func nearbyQueriesParseOrNameTheBadParameter() {
        var random = SplitMix64(seed: 0x9EA2)
        let pieces = ["", "0", "-0", "1", "37.77", "-122.42", "90", "-90.0000001", "180", "1e3", "1e400", "NaN", "inf", "-1",
            "0x10", " 1", "1 ", "١٢", "+5", "5.", ".5", "20", "21", "9999999999999999999999", "gem", "restaurant", "é", "\u{0}"]
        for _ in 0..<(Self.iterations * 5) {
            func pick() -> String? {
                let index = Int(random.next() % UInt64(pieces.count + 1))
                return index == pieces.count ? nil : pieces[index]
            }
            do {
                let filter = try PlaceFilter.parse(
                    kind: pick(), tags: [pick()].compactMap { $0 }, cuisine: pick(), minPrice: pick(), maxPrice: pick(),
                    minRating: pick(), openAt: pick()
                )
                let query = try NearbyQuery.parse(lat: pick(), lon: pick(), radius: pick(), radiusKm: pick(), limit: pick(), filter: filter)
                #expect(query.radiusMiles > 0 && query.radiusMiles <= 20 && query.center.latitude.isFinite)
            } catch {
                #expect(error.code == .invalidInput && error.field != nil)
            }
        }
    }
}
