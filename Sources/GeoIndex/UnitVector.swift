#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point on the unit sphere; distances between two of them are computed from the chord, which is exact and cheap.
struct UnitVector: Sendable, Hashable {
    var x: Double
    var y: Double
    var z: Double

    /// The unit vector of a coordinate; every distance in the module goes through this one conversion, so the index
    /// and `Geodesy.distanceMeters` agree to the last bit.
    init(_ coordinate: Coordinate) {
        let phi = coordinate.latitude * (Double.pi / 180)
        let lambda = coordinate.longitude * (Double.pi / 180)
        let cosPhi = cos(phi)
        x = cosPhi * cos(lambda)
        y = cosPhi * sin(lambda)
        z = sin(phi)
    }

    init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// Squared chord length to another unit vector (0...4), monotone in the great-circle distance.
    @inline(__always)
    func chordSquared(_ x2: Double, _ y2: Double, _ z2: Double) -> Double {
        let dx = x - x2
        let dy = y - y2
        let dz = z - z2
        return dx * dx + dy * dy + dz * dz
    }

    /// The central angle (radians) to another unit vector, given the squared chord between them.
    ///
    /// Up to 90° the chord is well conditioned (2·asin(c/2)); beyond it the sum vector is, so near-antipodal
    /// distances keep their precision too.
    @inline(__always)
    func centralAngle(chordSquared c2: Double, _ x2: Double, _ y2: Double, _ z2: Double) -> Double {
        if c2 <= 2 {
            return 2 * UnitVector.arcsin(c2.squareRoot() * 0.5)
        }
        let sx = x + x2
        let sy = y + y2
        let sz = z + z2
        return Double.pi - 2 * UnitVector.arcsin((sx * sx + sy * sy + sz * sz).squareRoot() * 0.5)
    }

    /// asin, by its Taylor series for the small arguments of city-scale queries (error below 1e-21 relative for
    /// x < 0.01, i.e. chords under ~127 km), which is several times cheaper than the library call.
    @inline(__always)
    static func arcsin(_ v: Double) -> Double {
        if v < 0.01 {
            let v2 = v * v
            let series = 1 + v2 * (1.0 / 6 + v2 * (3.0 / 40 + v2 * (5.0 / 112 + v2 * (35.0 / 1152))))
            return v * series
        }
        return asin(min(v, 1))
    }
}
