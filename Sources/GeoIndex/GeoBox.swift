/// A latitude-longitude box, as a map's viewport asks for one: its west, south, east and north edges in degrees.
///
/// A box whose west edge is east of its east edge crosses the antimeridian: it holds the longitudes from `west` to
/// 180 and from -180 to `east`. Edges belong to the box.
public struct GeoBox: Sendable, Hashable {
    public var west: Double
    public var south: Double
    public var east: Double
    public var north: Double

    /// Makes a box; it is not validated here (see `isValid`).
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// True when every edge is a valid coordinate and the south edge is not north of the north edge.
    public var isValid: Bool {
        Coordinate(latitude: south, longitude: west).isValid && Coordinate(latitude: north, longitude: east).isValid && south <= north
    }

    /// True when the box crosses the antimeridian (its west edge is east of its east edge).
    public var crossesAntimeridian: Bool { west > east }

    /// True when the coordinate lies in the box, edges included.
    @inline(__always)
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard coordinate.latitude >= south, coordinate.latitude <= north else { return false }
        return contains(longitude: coordinate.longitude)
    }

    /// True when the longitude lies between the box's west and east edges, across the antimeridian when it crosses.
    @inline(__always)
    public func contains(longitude: Double) -> Bool {
        crossesAntimeridian ? longitude >= west || longitude <= east : longitude >= west && longitude <= east
    }
}
