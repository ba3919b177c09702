/// One measured batch: an engine, a radius and a mode, over the centres it ran.
struct BenchRow {
    let engine: String
    let radiusMiles: Double
    let mode: String
    let micros: [Double]
    let totalResults: Int

    var ran: Int { micros.count }
    var medianMicros: Double { percentile(0.5) }
    var p99Micros: Double { percentile(0.99) }
    var qps: Double { micros.isEmpty ? 0 : Double(micros.count) / (micros.reduce(0, +) / 1e6) }
    var meanResults: Double { micros.isEmpty ? 0 : Double(totalResults) / Double(micros.count) }

    private func percentile(_ p: Double) -> Double {
        guard !micros.isEmpty else { return 0 }
        let sorted = micros.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    var json: String {
        "{\"engine\":\"\(engine)\",\"radiusMiles\":\(format(radiusMiles)),\"mode\":\"\(mode)\",\"medianMicros\":\(format(medianMicros)),"
            + "\"p99Micros\":\(format(p99Micros)),\"qps\":\(format(qps)),\"meanResults\":\(format(meanResults)),\"centres\":\(ran)}"
    }
}

/// All rows for one dataset size.
struct BenchReport {
    let places: Int
    let bytesPerPlace: Double
    let buildSeconds: Double
    let rows: [BenchRow]

    var json: String {
        "{\"places\":\(places),\"bytesPerPlace\":\(format(bytesPerPlace)),\"buildSeconds\":\(format(buildSeconds)),"
            + "\"rows\":[\(rows.map(\.json).joined(separator: ","))]}"
    }

    var table: String {
        var lines = [
            "places: \(places)  grid bytes/place: \(format(bytesPerPlace))  grid build: \(format(buildSeconds)) s",
            pad(["engine", "radius", "mode", "median µs", "p99 µs", "q/s", "mean hits", "centres", "× grid"]),
        ]
        for row in rows {
            let grid = rows.first { $0.engine == "grid" && $0.radiusMiles == row.radiusMiles && $0.mode == row.mode }
            let ratio = grid.map { row.medianMicros / max($0.medianMicros, 1e-9) } ?? 1
            lines.append(
                pad([
                    row.engine, "\(format(row.radiusMiles)) mi", row.mode, format(row.medianMicros), format(row.p99Micros),
                    format(row.qps), format(row.meanResults), "\(row.ran)", format(ratio),
                ])
            )
        }
        return lines.joined(separator: "\n")
    }

    private func pad(_ cells: [String]) -> String {
        cells.enumerated().map { i, cell in
            let width = i < 3 ? 8 : 11
            return i < 3 ? cell.padding(width) : String(repeating: " ", count: max(0, width - cell.count)) + cell
        }.joined(separator: " ")
    }
}

/// Fixed-point text without Foundation's formatters: integers above 100, else three significant decimals.
func format(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    if abs(value) >= 100 { return String(Int(value.rounded())) }
    let scaled = (value * 1000).rounded() / 1000
    return String(scaled)
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
