import GeoIndex
import PlacesCore

extension SplitMix64 {
    /// A coordinate around `centre`: its latitude up to `latitudeSpread` degrees away (uniformly, kept within
    /// `latitudes`), then its longitude up to `longitudeSpread` degrees away (uniformly, wrapped across the
    /// antimeridian into -180...180). The same seed gives the same coordinates on every run and engine.
    public mutating func coordinate(
        near centre: Coordinate,
        latitudeSpread: Double,
        longitudeSpread: Double,
        latitudes: ClosedRange<Double> = -90...90
    ) -> Coordinate {
        let latitude = centre.latitude + Double.random(in: -latitudeSpread...latitudeSpread, using: &self)
        var longitude = centre.longitude + Double.random(in: -longitudeSpread...longitudeSpread, using: &self)
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return Coordinate(latitude: min(latitudes.upperBound, max(latitudes.lowerBound, latitude)), longitude: longitude)
    }
}
