extension GridStorage {
    /// Calls `body` with every entry whose coordinate lies in `box`, band by band (south to north), each band by longitude.
    ///
    /// The bands and their longitude windows are widened by `longitudeSlack`, which covers the stored Float longitude's
    /// rounding; an entry well inside both is in the box without another look, and one near an edge is decided by its
    /// exact coordinate, which `coordinate` gives (the index keeps none), so the answer is exact.
    func forEachEntry(in box: GeoBox, coordinate: (UInt32) -> Coordinate, _ body: (GridEntry) -> Void) {
        guard box.isValid else { return }
        let slack = GridStorage.longitudeSlack
        let first = layout.band(latitude: box.south - slack)
        let last = layout.band(latitude: box.north + slack)
        // The longitude windows, each with the part of it that needs no exact test.
        let windows: [(low: Double, high: Double)] =
            box.crossesAntimeridian ? [(box.west, 180), (-180, box.east)] : [(box.west, box.east)]
        for b in first...last {
            // A band wholly inside the box's latitudes (its edges' rounding included) needs no latitude test.
            let south = layout.edgeRadians[b] * (180 / Double.pi)
            let north = layout.edgeRadians[b + 1] * (180 / Double.pi)
            let inside = south >= box.south + slack && north <= box.north - slack
            withBand(b) { band in
                guard !band.isEmpty else { return }
                for window in windows {
                    let start = band.firstIndex(notBelow: Float(window.low - slack))
                    let end = band.firstIndex(above: Float(window.high + slack))
                    guard start < end else { continue }
                    let sure = (low: Float(window.low + slack), high: Float(window.high - slack))
                    for i in start..<end {
                        let entry = band[i]
                        if inside, entry.lon > sure.low, entry.lon < sure.high {
                            body(entry)
                            continue
                        }
                        // Exact, and against this window's own longitudes: a crossing box's two windows never both
                        // take an entry, however close its edges.
                        let exact = coordinate(entry.key)
                        if exact.latitude >= box.south, exact.latitude <= box.north, exact.longitude >= window.low,
                            exact.longitude <= window.high
                        {
                            body(entry)
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with every entry whose stored position may lie in `box` (a box that does not cross the
    /// antimeridian): its bands and longitude windows widened by `longitudeSlack`, with no exact test, so some
    /// entries just outside are given too. For callers that decide membership themselves.
    func forEachCandidate(in box: GeoBox, _ body: (GridEntry) -> Void) {
        guard box.isValid, !box.crossesAntimeridian else { return }
        let slack = GridStorage.longitudeSlack
        let first = layout.band(latitude: box.south - slack)
        let last = layout.band(latitude: box.north + slack)
        let low = Float(box.west - slack)
        let high = Float(box.east + slack)
        for b in first...last {
            withBand(b) { band in
                let end = band.firstIndex(above: high)
                var i = band.firstIndex(notBelow: low)
                while i < end {
                    body(band[i])
                    i += 1
                }
            }
        }
    }
}
