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
}
