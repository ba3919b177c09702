import ArgumentParser
import Foundation
import GeoIndex
import PlacesCore

/// Search as you type at the load test's places (`Tests/tools/generate_places.py`: "Lantern Cafe 123", a common word
/// in about 1 of 12 names): from the index's postings, and, as the baseline in the same run, by weighing every place
/// with `SearchText.relevance` (what the engines' SQL did before: every match scored and sorted).
struct SearchBench {
    let count: Int
    let queries: Int
    /// Whether to weigh every place as the baseline too (slow: seconds a query at 10M places).
    var weighEveryPlace = true

    static let firstWords = ["Blue", "Hidden", "Old", "Little", "Golden", "Corner", "River", "Hill", "Garden", "Lantern", "Harbor", "Cedar"]
    static let nouns = ["Cafe", "Steps", "Mural", "Bistro", "Garden", "Viewpoint", "Noodle Bar", "Bookshop", "Taqueria", "Overlook"]

    func run() throws -> String {
        var data = BenchDataset(seed: 42)
        var rng = SplitMix64(seed: 42)
        let summaries = data.coordinates(count).enumerated().map { i, coordinate in
            let kind: PlaceKind = i % 2 == 0 ? .restaurant : .gem
            let first = Self.firstWords[Int.random(in: 0..<Self.firstWords.count, using: &rng)]
            let noun = Self.nouns[Int.random(in: 0..<Self.nouns.count, using: &rng)]
            var summary = PlaceSummary(id: "gen-\(i)", kind: kind, name: "\(first) \(noun) \(i)", coordinate: coordinate)
            summary.tags = ["generated", kind.rawValue]
            return summary
        }
        let (index, loaded) = PlaceIndex.timedLoad(summaries)
        let clock = ContinuousClock()
        let size = index.searchSize
        // Circles of 20 miles around the cities, a little moved each time.
        let circles = (0..<queries).map { _ in
            let city = BenchDataset.cities[Int.random(in: 0..<BenchDataset.cities.count, using: &rng)]
            return (city.0 + Double.random(in: -0.05...0.05, using: &rng), city.1 + Double.random(in: -0.05...0.05, using: &rng))
        }
        func query(_ q: String, circle: Int?) throws -> PlaceSearchQuery {
            try PlaceSearchQuery.parse(
                q: q,
                lat: circle.map { "\(circles[$0].0)" },
                lon: circle.map { "\(circles[$0].1)" },
                radius: circle == nil ? nil : "20",
                page: PageRequest()
            )
        }
        var lines = [
            "search: \(count) places, loaded into the index in \(String(format: "%.1f", loaded.seconds)) s; "
                + "\(size.words) words, \(size.postings) postings, \(String(format: "%.1f", Double(size.bytes) / Double(count))) bytes/place",
            "query                                   matches   median µs    p99 µs",
        ]
        var mismatches = 0
        for (q, inCircle) in [
            ("lantern", false), ("cafe", false), ("lan", false), ("l", false), ("harbor cafe", false), ("1", false), ("lantern", true), ("l", true),
        ] {
            var times: [Double] = []
            var matches = 0
            for turn in 0..<queries {
                let asked = try query(q, circle: inCircle ? turn : nil)
                let elapsed = try clock.measure { _ = try index.search(asked) }
                times.append(elapsed.microseconds)
            }
            // Inside a circle, the same searches weighing every match there: what the nearest-first walk replaced.
            var weighed: [Double] = []
            if inCircle {
                for turn in 0..<queries {
                    let asked = try query(q, circle: turn)
                    let elapsed = try clock.measure { _ = try index.searchWeighingEveryMatch(asked) }
                    weighed.append(elapsed.microseconds)
                    if try index.searchWeighingEveryMatch(asked).items.map(\.place.id) != index.search(asked).items.map(\.place.id) {
                        mismatches += 1
                    }
                }
            }
            // The baseline: every place weighed, every match sorted; a few runs (it is slow), checked against the index.
            var baseline: [Double] = []
            for turn in 0..<(weighEveryPlace ? min(queries, 3) : 0) {
                let asked = try query(q, circle: inCircle ? turn : nil)
                var expected: [String] = []
                let elapsed = clock.measure {
                    var hits: [(Int, Double, String)] = []
                    for place in summaries {
                        let fields = SearchText.fieldWords(name: place.name, tags: place.tags, cuisine: place.cuisine, description: place.description)
                        let relevance = SearchText.relevance(of: asked.words, in: fields)
                        guard relevance > 0 else { continue }
                        var distance = 0.0
                        if let circle = asked.circle {
                            distance = Geodesy.distanceMeters(circle.center, place.coordinate)
                            guard distance <= circle.radiusMeters else { continue }
                        }
                        hits.append((relevance, distance, place.id))
                    }
                    hits.sort { $0.0 != $1.0 ? $0.0 > $1.0 : ($0.1, $0.2) < ($1.1, $1.2) }
                    matches = hits.count
                    expected = hits.prefix(asked.page.limit).map(\.2)
                }
                baseline.append(elapsed.microseconds)
                if try index.search(asked).items.map(\.place.id) != expected { mismatches += 1 }
            }
            let name = "\"\(q)\"" + (inCircle ? " within 20 mi" : "")
            lines.append(Self.row(name, matches: matches, times))
            if inCircle { lines.append(Self.row("  weighing every match in the circle", matches: matches, weighed)) }
            if weighEveryPlace { lines.append(Self.row("  weighing every place (baseline)", matches: matches, baseline)) }
        }
        if mismatches > 0 {
            printError("FAILED: \(mismatches) searches from the index differ from the baseline's")
            throw ExitCode(2)
        }
        return lines.joined(separator: "\n")
    }

    static func row(_ name: String, matches: Int, _ micros: [Double]) -> String {
        let format = { (value: Double) in String(format: value < 100 ? "%.1f" : "%.0f", value) }
        return name.padding(toLength: 36, withPad: " ", startingAt: 0) + String(matches).leftPadded(10)
            + format(micros.median).leftPadded(12) + format(micros.p99).leftPadded(10)
    }
}
