#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A query's circle for callers that walk cells of their own (the map's grid, say) over the index's points: the
/// distance of a point as `GridIndex.within` works it out, to the last bit, and a lower bound on the distance to a
/// box, so whole cells can be passed over.
public struct GeoCircle: Sendable {
    private let circle: QueryCircle

    /// Nil for an invalid centre or a negative or NaN radius, which match nothing.
    public init?(center: Coordinate, radiusMeters: Double) {
        guard let circle = QueryCircle(center: center, radiusMeters: radiusMeters) else { return nil }
        self.circle = circle
    }

    /// The radius, in metres.
    public var radiusMeters: Double { circle.radiusMeters }

    /// The great-circle distance in metres from the centre to the point of a unit vector (as
    /// `GridIndex.forEachPoint` gives it), or nil when the point lies outside the circle.
    @inline(__always)
    public func distance(x: Double, y: Double, z: Double) -> Double? {
        circle.distance(x: x, y: y, z: z)
    }

    /// A lower bound, in metres, on the distance from the centre to any point of a box that does not cross the
    /// antimeridian: 0 when the centre is inside it.
    ///
    /// The larger of two bounds. The latitude gap: no path to the box is shorter than the difference of latitudes.
    /// The longitude gap: a point of the box at a longitude Δλ away lies on that meridian's great circle, which is
    /// asin(cos φ · |sin Δλ|) from the centre, and |sin| is concave over the box's Δλ, so its ends bound it. Both are
    /// lowered by more than the rounding of their computation.
    public func minimumDistance(to box: GeoBox) -> Double {
        let degrees = Double.pi / 180
        let latitudeGap: Double
        if circle.latitude < box.south {
            latitudeGap = (box.south - circle.latitude) * degrees
        } else if circle.latitude > box.north {
            latitudeGap = (circle.latitude - box.north) * degrees
        } else {
            latitudeGap = 0
        }
        var longitudeGap = 0.0
        if box.west > -180 || box.east < 180, !(circle.longitude >= box.west && circle.longitude <= box.east) {
            // The short way round, in [0, 180], from the centre's longitude to each edge; past the antipodal meridian
            // the difference falls again, so a box holding it reaches 180.
            func apart(_ longitude: Double) -> Double {
                let d = abs(longitude - circle.longitude).truncatingRemainder(dividingBy: 360)
                return d > 180 ? 360 - d : d
            }
            let antipode = circle.longitude > 0 ? circle.longitude - 180 : circle.longitude + 180
            let near = min(apart(box.west), apart(box.east))
            let far = antipode >= box.west && antipode <= box.east ? 180 : max(apart(box.west), apart(box.east))
            let s = circle.cosPhi * min(sin(near * degrees), sin(far * degrees))
            longitudeGap = asin(min(1, max(0, s)))
        }
        return max(0, Geodesy.earthRadiusMeters * max(latitudeGap, longitudeGap) * (1 - 1e-9) - 1e-6)
    }
}
