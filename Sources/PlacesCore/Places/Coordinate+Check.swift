import GeoIndex

extension Coordinate {
    /// Throws `invalid_input` naming `lat` or `lon` unless the coordinate is finite WGS-84 degrees
    /// (latitude in [-90, 90], longitude in [-180, 180]); the one range check of every input path.
    public func check() throws(PlacesError) {
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw .invalid("lat", "lat must be a number from -90 to 90, got \(latitude)")
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            throw .invalid("lon", "lon must be a number from -180 to 180, got \(longitude)")
        }
    }
}
