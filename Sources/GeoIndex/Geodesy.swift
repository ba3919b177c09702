#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Great-circle geometry on the IUGG mean sphere, the single definition of distance in Places.
public enum Geodesy {
    /// The IUGG mean earth radius, in metres.
    public static let earthRadiusMeters = 6_371_008.8
    /// Metres in an international mile.
    public static let metersPerMile = 1_609.344

    /// Great-circle distance in metres; the grid index reports exactly this value for its hits.
    public static func distanceMeters(_ a: Coordinate, _ b: Coordinate) -> Double {
        let u = UnitVector(a)
        let v = UnitVector(b)
        let c2 = u.chordSquared(v.x, v.y, v.z)
        return earthRadiusMeters * u.centralAngle(chordSquared: c2, v.x, v.y, v.z)
    }

    /// The initial bearing of the great circle from `a` to `b`, in degrees clockwise from true north, in [0, 360);
    /// 0 when the points are the same. From a pole, where north is undefined, it follows the longitudes: the
    /// meridian of `b` is 180 from the north pole and 0 from the south pole.
    public static func initialBearingDegrees(from a: Coordinate, to b: Coordinate) -> Double {
        let phi1 = a.latitude * (Double.pi / 180)
        let phi2 = b.latitude * (Double.pi / 180)
        let deltaLambda = (b.longitude - a.longitude) * (Double.pi / 180)
        let y = sin(deltaLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(deltaLambda)
        if a.latitude == 90 { return 180 }
        if a.latitude == -90 { return 0 }
        guard y != 0 || x != 0 else { return 0 }
        let degrees = atan2(y, x) * (180 / Double.pi)
        let normalized = degrees < 0 ? degrees + 360 : degrees
        return normalized >= 360 ? 0 : normalized
    }

    /// The unit vector of a coordinate (x towards 0°E on the equator, z towards the north pole): what sums of
    /// positions are taken over, so that a mean does not break at the antimeridian.
    public static func unitVector(_ coordinate: Coordinate) -> (x: Double, y: Double, z: Double) {
        let v = UnitVector(coordinate)
        return (v.x, v.y, v.z)
    }

    /// The coordinate a vector points to (it need not be of unit length); nil for one too short to have a direction.
    public static func coordinate(x: Double, y: Double, z: Double) -> Coordinate? {
        let horizontal = (x * x + y * y).squareRoot()
        guard (horizontal * horizontal + z * z).squareRoot() > 1e-12 else { return nil }
        let latitude = atan2(z, horizontal) * (180 / Double.pi)
        let longitude = horizontal == 0 ? 0 : atan2(y, x) * (180 / Double.pi)
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}
