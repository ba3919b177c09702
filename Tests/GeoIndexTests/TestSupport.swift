import Testing

@testable import GeoIndex

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small seeded generator (SplitMix64), so every property test is reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Haversine from latitude and longitude, written independently of the index's unit-vector chord.
func haversineMeters(_ a: Coordinate, _ b: Coordinate) -> Double {
    let r = 6_371_008.8
    let p1 = a.latitude * .pi / 180
    let p2 = b.latitude * .pi / 180
    let dp = p2 - p1
    let dl = (b.longitude - a.longitude) * .pi / 180
    let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
    return 2 * r * asin(min(1, h.squareRoot()))
}

/// The point `meters` from `origin` along `bearing` degrees (spherical direct problem), clamped to valid ranges.
func destination(from origin: Coordinate, meters: Double, bearing: Double) -> Coordinate {
    let d = meters / 6_371_008.8
    let t = bearing * .pi / 180
    let p1 = origin.latitude * .pi / 180
    let l1 = origin.longitude * .pi / 180
    let p2 = asin(min(1, max(-1, sin(p1) * cos(d) + cos(p1) * sin(d) * cos(t))))
    let l2 = l1 + atan2(sin(t) * sin(d) * cos(p1), cos(d) - sin(p1) * sin(p2))
    var lon = l2 * 180 / .pi
    while lon > 180 { lon -= 360 }
    while lon < -180 { lon += 360 }
    return Coordinate(latitude: min(90, max(-90, p2 * 180 / .pi)), longitude: lon)
}

extension SplitMix64 {
    mutating func uniformOnSphere() -> Coordinate {
        let z = Double.random(in: -1...1, using: &self)
        return Coordinate(latitude: asin(z) * 180 / .pi, longitude: Double.random(in: -180...180, using: &self))
    }

    mutating func near(_ centre: Coordinate, within meters: Double) -> Coordinate {
        destination(
            from: centre,
            meters: Double.random(in: 0...meters, using: &self),
            bearing: Double.random(in: 0..<360, using: &self)
        )
    }
}

/// Checks a grid answer against brute force over `points`: same keys and order, except points within 1e-6 m of
/// the boundary (or of the k-th distance), which either side may keep.
func expectMatchesBruteForce(
    _ hits: [GridHit],
    points: [(key: UInt32, coordinate: Coordinate)],
    center: Coordinate,
    radius: Double,
    limit: Int? = nil,
    filter: ((UInt32) -> Bool)? = nil,
    tieBreak: ((UInt32, UInt32) -> Bool)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let tolerance = 1e-6
    let before: (UInt32, UInt32) -> Bool = tieBreak ?? { $0 < $1 }
    var coordinates: [UInt32: Coordinate] = [:]
    for point in points { coordinates[point.key] = point.coordinate }
    let brute = points.compactMap { point -> (key: UInt32, d: Double)? in
        guard filter?(point.key) ?? true else { return nil }
        let d = haversineMeters(center, point.coordinate)
        return d <= radius + tolerance ? (point.key, d) : nil
    }.sorted { $0.d != $1.d ? $0.d < $1.d : before($0.key, $1.key) }

    var problems: [String] = []
    // The grid's own order: by its distance, then the tie-break; its distance is Geodesy's, to the bit.
    for (a, b) in zip(hits, hits.dropFirst()) {
        let ordered = a.distanceMeters < b.distanceMeters || (a.distanceMeters == b.distanceMeters && before(a.key, b.key))
        if !ordered { problems.append("out of order: \(a) then \(b)") }
    }
    var seen = Set<UInt32>()
    for hit in hits {
        if !seen.insert(hit.key).inserted { problems.append("duplicate key \(hit.key)") }
        guard let coordinate = coordinates[hit.key] else {
            problems.append("unknown key \(hit.key)")
            continue
        }
        let d = haversineMeters(center, coordinate)
        if hit.distanceMeters > radius { problems.append("\(hit) beyond the radius") }
        // Haversine itself loses precision near the antipode (asin at 1), the index's formula does not.
        let allowed = d > 2.0e7 ? 1.0 : max(tolerance, d * 1e-12)
        if abs(d - hit.distanceMeters) > allowed { problems.append("\(hit) but haversine says \(d)") }
        if hit.distanceMeters != Geodesy.distanceMeters(center, coordinate) { problems.append("\(hit) differs from Geodesy") }
        if !(filter?(hit.key) ?? true) { problems.append("\(hit) fails the filter") }
    }
    let k = limit ?? Int.max
    let cutoff = hits.count == k ? (hits.last?.distanceMeters ?? 0) - tolerance : radius - tolerance
    for point in brute where point.d < cutoff && !seen.contains(point.key) {
        problems.append("missing key \(point.key) at \(point.d) m")
    }
    if hits.count < k {
        let sure = brute.filter { $0.d <= radius - tolerance }.count
        if hits.count < sure { problems.append("\(hits.count) hits, brute force has \(sure)") }
    }
    // Keys both sides agree on come in the same order, up to boundary-close distances.
    var bruteRank: [UInt32: (rank: Int, d: Double)] = [:]
    for (rank, point) in brute.enumerated() { bruteRank[point.key] = (rank, point.d) }
    for (a, b) in zip(hits, hits.dropFirst()) {
        guard let ra = bruteRank[a.key], let rb = bruteRank[b.key] else { continue }
        if !(ra.rank < rb.rank || abs(ra.d - rb.d) <= tolerance) { problems.append("order of \(a.key), \(b.key)") }
    }
    #expect(problems.isEmpty, "centre \(center), radius \(radius), limit \(k): \(problems.prefix(5))", sourceLocation: sourceLocation)
}
