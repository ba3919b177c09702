import ArgumentParser
import Foundation
import GeoIndex
import PlacesCore

/// The map's queries at the benchmark's places: clusters of the continental US at zoom 4 and of a city at zoom 12,
/// from the counts kept per cell and, as the baseline in the same run, from a scan of the box; and viewports.
struct MapBench {
    let count: Int
    let queries: Int

    /// One row: what was asked, how long it took (median and p99 over the queries), and how much it answered.
    struct Row {
        let name: String
        let micros: [Double]
        let features: Int

        var median: Double { micros.median }
        var p99: Double { micros.p99 }
    }

    func run() throws -> String {
        var data = BenchDataset(seed: 42)
        let summaries = data.coordinates(count).enumerated().map { i, coordinate in
            var summary = PlaceSummary(
                id: String(format: "p-%08x", i),
                kind: i % 3 == 0 ? .restaurant : .gem,
                name: "Place \(i)",
                coordinate: coordinate
            )
            // Some rated places, so the viewport's best-first order has scores to sort.
            if i % 7 == 0 { summary.rating = RatingAggregate(count: 1 + i % 9, sum: (1 + i % 9) * (1 + i % 5)) }
            return summary
        }
        let (index, loaded) = PlaceIndex.timedLoad(summaries)
        let clock = ContinuousClock()
        var rng = SplitMix64(seed: 7)
        // Viewports a little panned each time: the continental US at zoom 4 (a 1280×800 screen), a city at zoom 12.
        let us = (0..<queries).map { _ in
            let dx = Double.random(in: -3...3, using: &rng)
            let dy = Double.random(in: -2...2, using: &rng)
            return GeoBox(west: -125 + dx, south: 24 + dy, east: -66 + dx, north: 50 + dy)
        }
        let cities = (0..<queries).map { _ in
            let city = BenchDataset.cities[Int.random(in: 0..<BenchDataset.cities.count, using: &rng)]
            let lat = city.0 + Double.random(in: -0.05...0.05, using: &rng)
            let lon = city.1 + Double.random(in: -0.05...0.05, using: &rng)
            return GeoBox(west: lon - 0.22, south: lat - 0.14, east: lon + 0.22, north: lat + 0.14)
        }
        func time(_ name: String, _ boxes: [GeoBox], _ ask: (GeoBox) throws -> Int) rethrows -> Row {
            var micros: [Double] = []
            var features = 0
            for box in boxes {
                var answered = 0
                let elapsed = try clock.measure { answered = try ask(box) }
                micros.append(elapsed.microseconds)
                features += answered
            }
            return Row(name: name, micros: micros, features: features / max(boxes.count, 1))
        }
        // Each way's answers are checked against the other's after the timing, not inside it.
        var counted: [Int] = []
        var scanned: [Int] = []
        let rows = [
            try time("clusters, US, zoom 4, from counts", us) { box in
                let answer = index.clusters(try ClusterQuery(box: box, zoom: 4))
                counted.append(answer.count)
                return answer.featureCount
            },
            try time("clusters, US, zoom 4, scan (baseline)", us) { box in
                let answer = index.clusters(try ClusterQuery(box: box, zoom: 4), fromCounts: false)
                scanned.append(answer.count)
                return answer.featureCount
            },
            try time("clusters, city, zoom 12", cities) { box in index.clusters(try ClusterQuery(box: box, zoom: 12)).featureCount },
            try time("clusters, city, zoom 10, from counts", cities) { box in index.clusters(try ClusterQuery(box: box, zoom: 10)).featureCount },
            try time("clusters, city, zoom 10, scan (baseline)", cities) { box in
                index.clusters(try ClusterQuery(box: box, zoom: 10), fromCounts: false).featureCount
            },
            try time("within, US, best 50", us) { box in index.within(try ViewportQuery(box: box, limit: 50)).ids.count },
            try time("within, city, best 50", cities) { box in index.within(try ViewportQuery(box: box, limit: 50)).ids.count },
        ]
        let mismatches = zip(counted, scanned).filter { $0 != $1 }.count
        if mismatches > 0 {
            printError("FAILED: \(mismatches) cluster answers from the counts differ from the scan's")
            throw ExitCode(2)
        }
        let format = { (value: Double) in String(format: value < 100 ? "%.1f" : "%.0f", value) }
        var lines = [
            "map: \(count) places, loaded into the index in \(format(loaded.seconds)) s; per-cell counts "
                + "\(format(Double(index.mapCellBytes) / Double(count))) bytes/place; \(queries) viewports each",
            "query                                      median µs    p99 µs   features",
        ]
        for row in rows {
            lines.append(
                row.name.padding(toLength: 42, withPad: " ", startingAt: 0)
                    + format(row.median).leftPadded(12) + format(row.p99).leftPadded(10) + String(row.features).leftPadded(11)
            )
        }
        return lines.joined(separator: "\n")
    }
}
