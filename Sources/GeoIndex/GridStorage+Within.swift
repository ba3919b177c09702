#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension GridStorage {
    /// Longitude slack (degrees) added to every window: covers Float rounding of stored longitudes (~1e-5°) and the
    /// rounding of the window trigonometry, so a point is never lost to it; the exact test removes the extras.
    static let longitudeSlack = 1e-4

    /// Every entry within the circle, sorted by (distance, tie-break).
    func all(in q: QueryCircle, filter: ((UInt32) -> Bool)?, order: HitOrder) -> [GridHit] {
        var hits: [GridHit] = []
        let thetaDegrees = q.theta * (180 / Double.pi)
        let slack = GridStorage.longitudeSlack
        let first = q.coversSphere ? 0 : layout.band(latitude: q.latitude - thetaDegrees - slack)
        let last = q.coversSphere ? layout.bandCount - 1 : layout.band(latitude: q.latitude + thetaDegrees + slack)
        // Where the circle is widest in longitude (the tangent latitude) and that half-width; absent when the circle
        // holds a pole, where the width grows all the way to the pole instead.
        var tangent: (phi: Double, halfWidth: Double)?
        let sinTheta = sin(q.theta)
        let cosTheta = cos(q.theta)
        if !q.coversSphere, cosTheta > 0, sinTheta < q.cosPhi {
            tangent = (asin(min(1, max(-1, q.sinPhi / cosTheta))), asin(sinTheta / q.cosPhi))
        }
        // Windows first: their total bounds the answer, so the hits array is allocated once at its final size (a
        // growing one re-allocates and page-faults its way up, which costs more than the scan at 20 miles).
        var windows: [(band: Int, start: Int, end: Int)] = []
        windows.reserveCapacity(2 * (last - first + 1))
        var candidates = 0
        for b in first...last {
            withBand(b) { band in
                guard !band.isEmpty else { return }
                let (east, west) = windowRanges(band, band: b, q, tangent: tangent)
                if !east.isEmpty { windows.append((b, east.lowerBound, east.upperBound)) }
                if !west.isEmpty { windows.append((b, west.lowerBound, west.upperBound)) }
                candidates += east.count + west.count
            }
        }
        hits.reserveCapacity(candidates)
        for window in windows {
            withBand(window.band) { band in
                collect(band, window.start, window.end, q, filter, &hits)
            }
        }
        order.sort(&hits, maxDistance: q.radiusMeters)
        return hits
    }

    /// The one or two index ranges of band `b` that can hold hits.
    private func windowRanges(
        _ band: BandView,
        band b: Int,
        _ q: QueryCircle,
        tangent: (phi: Double, halfWidth: Double)?
    ) -> (Range<Int>, Range<Int>) {
        let whole = (0..<band.count, 0..<0)
        guard let radians = halfWidth(band: b, q, tangent: tangent) else { return whole }
        let width = radians * (180 / Double.pi) * (1 + 1e-9) + GridStorage.longitudeSlack
        let low = q.longitude - width
        let high = q.longitude + width
        if width >= 180 { return whole }
        if low < -180 {
            return (band.firstIndex(notBelow: Float(low + 360))..<band.count, 0..<band.firstIndex(above: Float(high)))
        }
        if high > 180 {
            return (band.firstIndex(notBelow: Float(low))..<band.count, 0..<band.firstIndex(above: Float(high - 360)))
        }
        let start = band.firstIndex(notBelow: Float(low))
        return (start..<max(start, band.firstIndex(above: Float(high))), 0..<0)
    }

    /// The circle's largest longitude half-width (radians) over band `b`, or nil when the band must be read whole
    /// (centre at a pole, a pole inside the circle at this band, or a window of 360°).
    ///
    /// The half-width at latitude φ is unimodal (widest at the tangent latitude), so its maximum over the band is at
    /// an edge or at the tangent latitude. The haversine form keeps it accurate for small circles and high latitudes.
    private func halfWidth(band b: Int, _ q: QueryCircle, tangent: (phi: Double, halfWidth: Double)?) -> Double? {
        if q.cosPhi == 0 || q.coversSphere { return nil }
        let south = layout.edgeRadians[b]
        let north = layout.edgeRadians[b + 1]
        var width = 0.0
        if let tangent, tangent.phi >= south, tangent.phi <= north {
            width = tangent.halfWidth
        }
        for edge in b...(b + 1) {
            let dphi = layout.edgeRadians[edge] - q.phi
            guard abs(dphi) < q.theta else { continue }
            let cosEdge = layout.edgeCos[edge]
            if cosEdge == 0 { return nil }
            let h = sin((q.theta + dphi) / 2) * sin((q.theta - dphi) / 2) / (cosEdge * q.cosPhi)
            if h >= 1 { return nil }
            width = max(width, 2 * asin(max(0, h).squareRoot()))
        }
        return width
    }

    /// Appends the hits among entries `start..<end` of a band.
    @inline(__always)
    private func collect(
        _ band: BandView,
        _ start: Int,
        _ end: Int,
        _ q: QueryCircle,
        _ filter: ((UInt32) -> Bool)?,
        _ hits: inout [GridHit]
    ) {
        guard start < end else { return }
        let limit = q.chordLimit
        let c = q.center
        for i in start..<end {
            let entry = band[i]
            let c2 = c.chordSquared(entry.x, entry.y, entry.z)
            guard c2 <= limit else { continue }
            if let filter, !filter(entry.key) { continue }
            if let hit = q.hit(entry, chordSquared: c2) { hits.append(hit) }
        }
    }
}
