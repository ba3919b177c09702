import Foundation
import GeoIndex
import PlacesCore

/// The benchmark's seeded places and query centres: 70% around 20 US cities (gaussian, σ ≈ 10 km), 30% uniform
/// over the continental US.
struct BenchDataset {
    static let cities: [(Double, Double)] = [
        (40.71, -74.01), (34.05, -118.24), (41.88, -87.63), (29.76, -95.37), (33.45, -112.07),
        (39.95, -75.17), (29.42, -98.49), (32.72, -117.16), (32.78, -96.80), (37.34, -121.89),
        (30.27, -97.74), (39.74, -104.99), (47.61, -122.33), (42.36, -71.06), (36.17, -115.14),
        (45.52, -122.68), (35.15, -90.05), (38.91, -77.04), (44.98, -93.27), (25.76, -80.19),
    ]

    /// The decisions' generator (PlacesCore), so every run measures the same places.
    var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    mutating func coordinates(_ count: Int) -> [Coordinate] {
        (0..<count).map { _ in next() }
    }

    mutating func next() -> Coordinate {
        if Double.random(in: 0..<1, using: &generator) < 0.7 {
            let city = Self.cities[Int.random(in: 0..<Self.cities.count, using: &generator)]
            let (north, east) = gaussianPair()
            let lat = city.0 + north * 10 / 111.2
            let lon = city.1 + east * 10 / (111.2 * cos(city.0 * .pi / 180))
            return Coordinate(latitude: min(max(lat, -90), 90), longitude: min(max(lon, -180), 180))
        }
        return Coordinate(
            latitude: Double.random(in: 25...49, using: &generator),
            longitude: Double.random(in: -124.7 ... -67, using: &generator)
        )
    }

    /// Two independent standard normal values (Box–Muller).
    private mutating func gaussianPair() -> (Double, Double) {
        let u = max(Double.random(in: 0..<1, using: &generator), 1e-300)
        let v = Double.random(in: 0..<1, using: &generator)
        let r = (-2 * log(u)).squareRoot()
        return (r * cos(2 * .pi * v), r * sin(2 * .pi * v))
    }
}
