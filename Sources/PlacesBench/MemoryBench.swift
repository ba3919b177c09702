import Foundation
import GeoIndex
import PlacesCore

#if canImport(Glibc)
import Glibc
#endif

/// Where the index's bytes go: the load test's places (`Tests/tools/generate_places.py`: "Lantern Cafe 123", city
/// "Generated", tags `generated` and the kind) loaded into the index as a server loads them, each structure's bytes as
/// it counts them itself, set beside how much the process's resident size grew. Nothing is timed but the load.
struct MemoryBench {
    let count: Int

    /// The places, their strings made as a database read makes them (exactly as long as their bytes), and equal tag
    /// lists shared, as the engines' readers share them.
    static func places(_ count: Int) -> [PlaceSummary] {
        var data = BenchDataset(seed: 42)
        var rng = SplitMix64(seed: 42)
        let tags: [PlaceKind: [String]] = [.gem: ["generated", "gem"], .restaurant: ["generated", "restaurant"]]
        return (0..<count).map { i in
            let kind: PlaceKind = Bool.random(using: &rng) ? .restaurant : .gem
            let first = SearchBench.firstWords[Int.random(in: 0..<SearchBench.firstWords.count, using: &rng)]
            let noun = SearchBench.nouns[Int.random(in: 0..<SearchBench.nouns.count, using: &rng)]
            var summary = PlaceSummary(
                id: exact("gen-\(i)"),
                kind: kind,
                name: exact("\(first) \(noun) \(i)"),
                coordinate: data.next(),
                city: exact("Generated")
            )
            summary.tags = tags[kind] ?? []
            return summary
        }
    }

    /// The text in storage of its own, exactly as long as its bytes (interpolation leaves room to grow).
    private static func exact(_ text: String) -> String {
        String(decoding: Array(text.utf8), as: UTF8.self)
    }

    func run() -> String {
        returnFreedMemory()
        let before = residentBytes()
        var summaries = Self.places(count)
        let (index, loaded) = PlaceIndex.timedLoad(summaries)
        // What a server keeps: the index, not the snapshot it was loaded from.
        summaries = []
        returnFreedMemory()
        let grown = residentBytes() - before
        let report = index.memoryReport
        let perPlace = { (bytes: Int) in String(format: "%.1f", Double(bytes) / Double(max(count, 1))) }
        let width = max(40, report.rows.map(\.structure.count).max() ?? 0)
        var lines = [
            "memory: \(count) places, loaded into the index in \(String(format: "%.1f", loaded.seconds)) s",
            "structure".padding(toLength: width, withPad: " ", startingAt: 0) + "       bytes   bytes/place   share",
        ]
        for row in report.rows {
            let share = String(format: "%.1f%%", 100 * Double(row.bytes) / Double(max(report.total, 1)))
            lines.append(
                row.structure.padding(toLength: width, withPad: " ", startingAt: 0) + "\(row.bytes)".leftPadded(12)
                    + perPlace(row.bytes).leftPadded(14) + share.leftPadded(8)
            )
        }
        for (what, bytes) in [("counted by the structures", report.total), ("resident size grown by the load", grown)] {
            lines.append(what.padding(toLength: width, withPad: " ", startingAt: 0) + "\(bytes)".leftPadded(12) + perPlace(bytes).leftPadded(14))
        }
        withExtendedLifetime(index) {}
        return lines.joined(separator: "\n")
    }

    /// The process's resident bytes (`/proc/self/statm`'s second field, in pages); 0 where there is none.
    private func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Hands freed memory back to the system, as the index does after a full load (so scratch is not counted).
    private func returnFreedMemory() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        if let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(trim, to: Trim.self)(0)
        }
        #endif
    }
}
