#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A radius query's circle, with the trigonometry both search paths need computed once.
struct QueryCircle {
    let center: UnitVector
    let latitude: Double
    let longitude: Double
    /// Centre latitude in radians, its sine, and its cosine (exactly 0 at a pole).
    let phi: Double
    let sinPhi: Double
    let cosPhi: Double
    /// Angular radius in radians, capped at π.
    let theta: Double
    let radiusMeters: Double
    /// Squared chord of the radius, slightly inflated: a cheap pre-test, the distance itself decides.
    let chordLimit: Double
    /// True when the circle covers the whole sphere.
    let coversSphere: Bool

    /// Nil for an invalid centre or a negative or NaN radius, which match nothing.
    init?(center: Coordinate, radiusMeters: Double) {
        guard center.isValid, radiusMeters >= 0 else { return nil }
        self.center = UnitVector(center)
        latitude = center.latitude
        longitude = center.longitude
        phi = center.latitude * (Double.pi / 180)
        sinPhi = sin(phi)
        cosPhi = abs(center.latitude) == 90 ? 0 : cos(phi)
        self.radiusMeters = radiusMeters
        let angle = radiusMeters / Geodesy.earthRadiusMeters
        coversSphere = angle >= Double.pi
        theta = min(angle, Double.pi)
        if coversSphere {
            chordLimit = .infinity
        } else {
            let chord = 2 * sin(theta / 2)
            chordLimit = chord * chord * (1 + 1e-9) + 1e-300
        }
    }

    /// The hit for an entry whose squared chord passed the pre-test, or nil when its distance exceeds the radius.
    @inline(__always)
    func hit(_ entry: GridEntry, chordSquared c2: Double) -> GridHit? {
        distance(chordSquared: c2, x: entry.x, y: entry.y, z: entry.z).map { GridHit(key: entry.key, distanceMeters: $0) }
    }

    /// The distance in metres to a unit vector whose squared chord passed the pre-test, or nil past the radius.
    @inline(__always)
    func distance(chordSquared c2: Double, x: Double, y: Double, z: Double) -> Double? {
        let d = Geodesy.earthRadiusMeters * center.centralAngle(chordSquared: c2, x, y, z)
        return d <= radiusMeters ? d : nil
    }

    /// The distance in metres to a unit vector, or nil when it lies outside the circle.
    @inline(__always)
    func distance(x: Double, y: Double, z: Double) -> Double? {
        let c2 = center.chordSquared(x, y, z)
        guard c2 <= chordLimit else { return nil }
        return distance(chordSquared: c2, x: x, y: y, z: z)
    }
}
