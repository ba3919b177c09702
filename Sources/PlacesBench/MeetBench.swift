import ArgumentParser
import Foundation
import GeoIndex
import PlacesCore

/// Meet in the middle: 8 origins spread over 10 miles around a city, the 10 fairest places, from the walk of the
/// map's cells (`PlaceIndex.meet`); and, as the baseline in the same run, what a client of nearby alone would do:
/// every place within 20 miles of the first origin (the grid's radius query), each measured from every origin, kept
/// when all are within 20 miles, and sorted. Both answers are compared after the timing.
struct MeetBench {
    let count: Int
    let queries: Int

    func run() throws -> String {
        var data = BenchDataset(seed: 42)
        let coordinates = data.coordinates(count)
        let summaries = coordinates.enumerated().map { i, coordinate in
            PlaceSummary(id: "gen-\(i)", kind: i % 2 == 0 ? .restaurant : .gem, name: "Place \(i)", coordinate: coordinate)
        }
        let index = PlaceIndex()
        index.replaceAll(PlaceSnapshot(summaries: summaries, revision: 1))
        var grid = GridIndex()
        grid.build(coordinates.enumerated().map { (key: UInt32($0.offset), coordinate: $0.element) })
        var rng = SplitMix64(seed: 7)
        // Origins within 5 miles of a point near a city's centre: spread over up to 10 miles.
        let asked = (0..<queries).map { _ in
            let city = BenchDataset.cities[Int.random(in: 0..<BenchDataset.cities.count, using: &rng)]
            let middle = Coordinate(
                latitude: city.0 + Double.random(in: -0.05...0.05, using: &rng),
                longitude: city.1 + Double.random(in: -0.05...0.05, using: &rng)
            )
            let spread = 5 * Geodesy.metersPerMile / 111_200
            let origins = (0..<8).map { _ in
                Coordinate(
                    latitude: middle.latitude + Double.random(in: -spread...spread, using: &rng) / 1.42,
                    longitude: middle.longitude + Double.random(in: -spread...spread, using: &rng) / (1.42 * cos(middle.latitude * .pi / 180))
                )
            }
            return MeetQuery(origins: origins, limit: 10)
        }
        let clock = ContinuousClock()
        var lines = [
            "meet: \(count) places; \(queries) groups of 8 origins spread over 10 miles around the cities, the 10 fairest places",
            "query                                       median µs    p99 µs    places",
        ]
        var answers: [[[String]]] = []
        let ways: [(String, (MeetQuery) -> [String])] = [
            ("meet, from the map's cells", { query in index.meet(query).map(\.id) }),
            ("  nearby's circle, then filtered (baseline)", { query in Self.fromOneCircle(query, grid: grid, coordinates: coordinates) }),
        ]
        for (label, answer) in ways {
            var micros: [Double] = []
            var found: [[String]] = []
            for query in asked {
                var ids: [String] = []
                micros.append(clock.measure { ids = answer(query) }.microseconds)
                found.append(ids)
            }
            answers.append(found)
            let format = { (value: Double) in String(format: value < 100 ? "%.1f" : "%.0f", value) }
            lines.append(
                label.padding(toLength: 42, withPad: " ", startingAt: 0) + format(micros.median).leftPadded(12)
                    + format(micros.p99).leftPadded(10) + String(found.reduce(0) { $0 + $1.count } / max(found.count, 1)).leftPadded(10)
            )
        }
        let mismatches = zip(answers[0], answers[1]).filter { $0 != $1 }.count
        if mismatches > 0 {
            printError("FAILED: \(mismatches) meet answers differ from the baseline's")
            throw ExitCode(2)
        }
        return lines.joined(separator: "\n")
    }

    /// The baseline: every place within 20 miles of the first origin, measured from every origin, the fairest 10.
    static func fromOneCircle(_ query: MeetQuery, grid: GridIndex, coordinates: [Coordinate]) -> [String] {
        var kept: [(id: String, farthest: Double, total: Double)] = []
        for hit in grid.within(query.origins[0], radiusMeters: query.radiusMeters) {
            let at = coordinates[Int(hit.key)]
            var farthest = 0.0
            var total = 0.0
            var inside = true
            for origin in query.origins {
                let meters = Geodesy.distanceMeters(origin, at)
                if meters > query.radiusMeters {
                    inside = false
                    break
                }
                farthest = max(farthest, meters)
                total += meters
            }
            if inside { kept.append(("gen-\(hit.key)", farthest, total)) }
        }
        kept.sort { a, b in a.farthest != b.farthest ? a.farthest < b.farthest : a.total != b.total ? a.total < b.total : a.id < b.id }
        return kept.prefix(query.limit).map(\.id)
    }
}
