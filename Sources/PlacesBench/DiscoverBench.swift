import ArgumentParser
import Foundation
import GeoIndex
import PlacesCore

/// Discover ("popular near here": nearby by score) and `minRating`, in 20-mile circles around the cities: from the
/// walk of the map's cells, which their best ratings bound, and, as the baseline in the same run, from the grid alone
/// (a scan of the whole circle for the order by score; the nearest-first walk, filtering every place it meets, for
/// `minRating`). Both answers are compared after the timing.
///
/// Two sets of places: the load test's, which nobody has rated (every score is 3, and a `minRating` no place meets),
/// and the same places with a third of them rated (1 to 30 ratings of 1 to 5 stars each).
struct DiscoverBench {
    let count: Int
    let queries: Int

    func run() throws -> String {
        var lines: [String] = []
        var mismatches = 0
        for rated in [false, true] {
            var data = BenchDataset(seed: 42)
            var rng = SplitMix64(seed: 42)
            let summaries = data.coordinates(count).enumerated().map { i, coordinate in
                var summary = PlaceSummary(id: "gen-\(i)", kind: i % 2 == 0 ? .restaurant : .gem, name: "Place \(i)", coordinate: coordinate)
                if rated, Int.random(in: 0..<3, using: &rng) == 0 {
                    let ratings = Int.random(in: 1...30, using: &rng)
                    summary.rating = RatingAggregate(count: ratings, sum: Int.random(in: ratings...(5 * ratings), using: &rng))
                }
                return summary
            }
            let index = PlaceIndex()
            index.replaceAll(PlaceSnapshot(summaries: summaries, revision: 1))
            let centres = (0..<queries).map { _ in
                let city = BenchDataset.cities[Int.random(in: 0..<BenchDataset.cities.count, using: &rng)]
                return Coordinate(
                    latitude: city.0 + Double.random(in: -0.05...0.05, using: &rng),
                    longitude: city.1 + Double.random(in: -0.05...0.05, using: &rng)
                )
            }
            let cellBytes = String(format: "%.1f", Double(index.ratingCellBytes) / Double(count))
            lines.append(
                "discover: \(count) places, " + (rated ? "a third rated" : "none rated (the load test's)")
                    + "; \(queries) circles of 20 miles, 50 places; the best ratings of zoom 13's cells: \(cellBytes) bytes/place"
            )
            lines.append("query                                       median µs    p99 µs    places")
            let clock = ContinuousClock()
            for (name, sort, minRating) in [
                ("by distance (the grid's walk)", NearbyOrder.distance, nil), ("by score", .score, nil), ("minRating=4, by distance", .distance, 4),
                ("minRating=4, by score", .score, 4),
            ] as [(String, NearbyOrder, Double?)] {
                var filter = PlaceFilter()
                filter.minRating = minRating
                let asked = try centres.map { try NearbyQuery(center: $0, radiusMiles: 20, limit: 50, filter: filter, sort: sort) }
                let ways: [(String, Bool)] =
                    sort == .distance && minRating == nil ? [(name, false)] : [(name + ", from cells", true), ("  the grid alone (baseline)", false)]
                var answers: [[[String]]] = []
                for (label, fromCells) in ways {
                    var micros: [Double] = []
                    var found: [[String]] = []
                    for query in asked {
                        var answer: [NearbyPlace] = []
                        micros.append(clock.measure { answer = index.nearby(query, fromCells: fromCells) }.microseconds)
                        found.append(answer.map(\.id))
                    }
                    answers.append(found)
                    let format = { (value: Double) in String(format: value < 100 ? "%.1f" : "%.0f", value) }
                    lines.append(
                        label.padding(toLength: 42, withPad: " ", startingAt: 0) + format(micros.median).leftPadded(12)
                            + format(micros.p99).leftPadded(10) + String(found.reduce(0) { $0 + $1.count } / max(found.count, 1)).leftPadded(10)
                    )
                }
                if answers.count == 2 { mismatches += zip(answers[0], answers[1]).filter { $0 != $1 }.count }
            }
            lines.append("")
        }
        if mismatches > 0 {
            printError("FAILED: \(mismatches) answers from the cells differ from the grid's")
            throw ExitCode(2)
        }
        return lines.joined(separator: "\n")
    }
}
