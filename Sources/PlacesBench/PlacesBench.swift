import ArgumentParser
import Foundation
import GeoIndex

/// Measures the grid index against brute force and SQLite's R*Tree on the same places and centres, in one run.
@main
struct PlacesBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places-bench",
        abstract: "Radius and k-nearest query speed of the grid index against its baselines."
    )

    @Option(help: "Places to index (default: 100,000 then 1,000,000).")
    var places: [Int] = []

    @Option(help: "Query centres per batch.")
    var queries = 2_000

    @Option(help: "Seconds after which a baseline batch stops (it reports how many centres it ran).")
    var baselineSeconds = 30.0

    @Option(help: "Grid band height in degrees (for tuning).")
    var bandDegrees = GridIndex.defaultBandDegrees

    @Option(help: "Grid chunk width in band heights (for tuning).")
    var chunkFactor = GridIndex.defaultChunkFactor

    @Option(help: "Radii in miles.")
    var radii: [Double] = [1, 5, 20]

    @Option(help: "Modes: all, k50.")
    var modes: [String] = ["all", "k50"]

    @Flag(help: "Skip the baselines (for tuning the grid); with --search, the weighing of every place.")
    var gridOnly = false

    @Flag(help: "One JSON object per size, one per line.")
    var json = false

    @Flag(help: "Measure the map's queries (clusters and viewports) instead of radius queries.")
    var maps = false

    @Flag(help: "Measure search as you type (words and prefixes, with and without a circle) instead of radius queries.")
    var search = false

    @Flag(help: "Measure discover (nearby by score) and minRating in 20-mile circles, from the map's cells and from the grid alone.")
    var discover = false

    @Flag(help: "Measure meet in the middle (8 origins over 10 miles) from the map's cells, against nearby's circle filtered.")
    var meet = false

    @Flag(help: "Count where the index's bytes go, structure by structure, beside the resident size (100k, then 1M places).")
    var memory = false

    mutating func run() throws {
        if memory {
            for count in places.isEmpty ? [100_000, 1_000_000] : places {
                print(MemoryBench(count: count).run() + "\n")
            }
            return
        }
        if meet {
            for count in places.isEmpty ? [1_000_000] : places {
                print(try MeetBench(count: count, queries: min(queries, 200)).run() + "\n")
            }
            return
        }
        if discover {
            for count in places.isEmpty ? [1_000_000] : places {
                print(try DiscoverBench(count: count, queries: min(queries, 200)).run())
            }
            return
        }
        if search {
            for count in places.isEmpty ? [1_000_000] : places {
                print(try SearchBench(count: count, queries: min(queries, 200), weighEveryPlace: !gridOnly).run() + "\n")
            }
            return
        }
        if maps {
            for count in places.isEmpty ? [1_000_000] : places {
                print(try MapBench(count: count, queries: min(queries, 200)).run() + "\n")
            }
            return
        }
        for count in places.isEmpty ? [100_000, 1_000_000] : places {
            let report = try measure(count)
            print(json ? report.json : report.table + "\n")
        }
    }

    private func measure(_ count: Int) throws -> BenchReport {
        var data = BenchDataset(seed: 42)
        let coordinates = data.coordinates(count)
        let centres = data.coordinates(queries)
        let clock = ContinuousClock()
        var grid = GridIndex(bandDegrees: bandDegrees, chunkFactor: chunkFactor)
        let entries = coordinates.enumerated().map { (key: UInt32($0.offset), coordinate: $0.element) }
        let buildTime = clock.measure { grid.build(entries) }
        var engines: [any BenchEngine] = [GridEngine(grid: grid)]
        if !gridOnly {
            engines.append(BruteForceEngine(coordinates: coordinates))
            engines.append(try RTreeEngine(coordinates: coordinates))
        }
        var rows: [BenchRow] = []
        var mismatches = 0
        for miles in radii {
            for limit in modes.map({ $0 == "all" ? nil : 50 }) as [Int?] {
                var reference: [AnswerDigest] = []
                for engine in engines {
                    let isBaseline = engine.name != "grid"
                    var micros: [Double] = []
                    var results = 0
                    let started = clock.now
                    for (i, centre) in centres.enumerated() {
                        if isBaseline, clock.now - started > .seconds(baselineSeconds) { break }
                        var hits: [GridHit] = []
                        let elapsed = try clock.measure {
                            hits = try engine.query(centre, radiusMeters: miles * Geodesy.metersPerMile, limit: limit)
                        }
                        micros.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
                        results += hits.count
                        // A digest, not the answers: keeping 2,000 answers of 20,000 hits alive would make every
                        // query page-fault fresh memory, which no server sees.
                        let digest = AnswerDigest(hits)
                        hits = []
                        if !isBaseline {
                            reference.append(digest)
                        } else if digest != reference[i] {
                            mismatches += 1
                            if mismatches <= 10 {
                                let what = "\(engine.name) \(miles) mi limit \(limit ?? 0) centre \(centre)"
                                printError("MISMATCH \(what): \(digest.count) hits vs grid \(reference[i].count)")
                            }
                        }
                    }
                    rows.append(
                        BenchRow(engine: engine.name, radiusMiles: miles, mode: limit == nil ? "all" : "k50", micros: micros, totalResults: results)
                    )
                }
            }
        }
        if mismatches > 0 {
            printError("FAILED: \(mismatches) answers differ from the grid's")
            throw ExitCode(2)
        }
        let seconds = Double(buildTime.components.seconds) + Double(buildTime.components.attoseconds) / 1e18
        return BenchReport(places: count, bytesPerPlace: Double(grid.memoryBytes) / Double(max(count, 1)), buildSeconds: seconds, rows: rows)
    }

}

/// Count and FNV-1a hash of an answer's keys and distances, in order. Every engine computes distances with
/// `Geodesy.distanceMeters` and orders by (distance, key), so equal answers have equal digests, boundary ties included.
struct AnswerDigest: Equatable {
    let count: Int
    let hash: UInt64

    init(_ hits: [GridHit]) {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for hit in hits {
            for word in [UInt64(hit.key), hit.distanceMeters.bitPattern] {
                h = (h ^ word) &* 0x0000_0100_0000_01B3
            }
        }
        count = hits.count
        hash = h
    }
}

/// Writes to standard error, so `--json` output stays clean.
func printError(_ message: String) {
    var stream = StandardError()
    print(message, to: &stream)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}
