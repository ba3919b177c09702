/// A WGS-84 position in degrees.
public struct Coordinate: Sendable, Hashable, Codable {
    /// Degrees north of the equator, in [-90, 90].
    public var latitude: Double
    /// Degrees east of Greenwich, in [-180, 180].
    public var longitude: Double

    /// Makes a coordinate; it is not validated here (see `isValid`).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// True when both values are finite, the latitude is in [-90, 90] and the longitude in [-180, 180].
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}
