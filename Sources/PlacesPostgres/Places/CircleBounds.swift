import Foundation
import GeoIndex

/// The latitude and longitude ranges that hold every point of a circle on the sphere: what SQL filters a search on
/// before Swift measures each candidate's distance (Geodesy's, the one definition), so the ranges may hold more than
/// the circle but never less.
///
/// The longitude half-width of a cap of angular radius r around latitude φ is asin(sin r / cos φ). A circle that
/// crosses the antimeridian gets two ranges, one each side; one that reaches a pole takes every longitude.
struct CircleBounds: Equatable {
    /// Widening of every bound, in degrees, so a point the distance puts on the edge is never cut by rounding.
    static let margin = 1e-7

    /// The circle's latitude band, within [-90, 90].
    var latitude: ClosedRange<Double>
    /// One range of longitudes, or two when the circle crosses the antimeridian; [-180, 180] when it covers a pole.
    var longitudes: [ClosedRange<Double>]

    init(center: Coordinate, radiusMeters: Double) {
        let angle = radiusMeters / Geodesy.earthRadiusMeters
        let degrees = angle * 180 / Double.pi + Self.margin
        let south = center.latitude - degrees
        let north = center.latitude + degrees
        latitude = max(-90, south)...min(90, north)
        let ratio = sin(angle) / cos(center.latitude * Double.pi / 180)
        // Near 1, asin's slope grows without bound and a rounding error could exceed the margin: no bound then.
        guard south > -90, north < 90, angle < Double.pi / 2, ratio < 0.9999 else {
            longitudes = [-180...180]
            return
        }
        let halfWidth = asin(ratio) * 180 / Double.pi + Self.margin
        let west = center.longitude - halfWidth
        let east = center.longitude + halfWidth
        if west < -180 {
            longitudes = [(west + 360)...180, -180...east]
        } else if east > 180 {
            longitudes = [west...180, -180...(east - 360)]
        } else {
            longitudes = [west...east]
        }
    }

    /// True when the point lies within the ranges.
    func contains(_ point: Coordinate) -> Bool {
        latitude.contains(point.latitude) && longitudes.contains { $0.contains(point.longitude) }
    }
}
