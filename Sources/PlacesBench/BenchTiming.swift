import PlacesCore

/// What the map and search runs share: durations in the units they print, the median and p99 of a row's timings,
/// and right-aligned columns.
extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    var microseconds: Double { Double(components.seconds) * 1e6 + Double(components.attoseconds) / 1e12 }
}

extension PlaceIndex {
    /// An index holding `summaries`, and how long loading them took.
    static func timedLoad(_ summaries: [PlaceSummary]) -> (PlaceIndex, Duration) {
        let index = PlaceIndex()
        let loaded = ContinuousClock().measure { index.replaceAll(PlaceSnapshot(summaries: summaries, revision: 1)) }
        return (index, loaded)
    }
}

extension Array where Element == Double {
    /// The median of the timings (the upper one of an even count).
    var median: Double { sorted()[count / 2] }
    /// The 99th percentile of the timings.
    var p99: Double { sorted()[Swift.min(count - 1, count * 99 / 100)] }
}

extension String {
    /// The text right-aligned in `width` columns (as it is when longer).
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
