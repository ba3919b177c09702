import Testing

@testable import GeoIndex

/// The index against brute force on seeded random data, worldwide and clustered (poles and antimeridian included).
@Suite("GridIndex matches brute force")
struct GridIndexPropertyTests {
    static let clusterCentres = [
        Coordinate(latitude: 40.7, longitude: -74.0),
        Coordinate(latitude: -17.8, longitude: 179.99),
        Coordinate(latitude: 89.95, longitude: 10),
        Coordinate(latitude: -89.9, longitude: -120),
        Coordinate(latitude: 0, longitude: -180),
        Coordinate(latitude: 78.2, longitude: 15.6),
    ]

    static func dataset(seed: UInt64, count: Int) -> [(key: UInt32, coordinate: Coordinate)] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { i in
            let coordinate: Coordinate
            if i % 3 == 0 {
                coordinate = rng.uniformOnSphere()
            } else {
                let centre = clusterCentres[Int.random(in: 0..<clusterCentres.count, using: &rng)]
                coordinate = rng.near(centre, within: i % 2 == 0 ? 3_000 : 40_000)
            }
            return (UInt32(i), coordinate)
        }
    }

    static let radii: [Double] = [0, 50, 800, 1_609.344, 8_046.72, 32_186.88, 250_000, 3_000_000, 12_000_000, 21_000_000]

    @Test("radius queries", arguments: [false, true])
    func radiusQueries(filtered: Bool) {
        let points = Self.dataset(seed: filtered ? 7 : 3, count: 4_000)
        var grid = GridIndex()
        grid.build(points)
        #expect(grid.count == points.count)
        var rng = SplitMix64(seed: 99)
        let filter: ((UInt32) -> Bool)? = filtered ? { $0 % 3 != 1 } : nil
        for q in 0..<90 {
            let center = q % 2 == 0 ? rng.uniformOnSphere() : rng.near(Self.clusterCentres[q % Self.clusterCentres.count], within: 20_000)
            let radius = Self.radii[q % Self.radii.count]
            let hits = grid.within(center, radiusMeters: radius, where: filter)
            expectMatchesBruteForce(hits, points: points, center: center, radius: radius, filter: filter)
        }
    }

    @Test("k nearest within a radius", arguments: [1, 10, 50])
    func nearest(limit: Int) {
        let points = Self.dataset(seed: UInt64(limit), count: 4_000)
        var grid = GridIndex()
        grid.build(points)
        var rng = SplitMix64(seed: 5 + UInt64(limit))
        for q in 0..<90 {
            let center = q % 3 == 0 ? rng.uniformOnSphere() : rng.near(Self.clusterCentres[q % Self.clusterCentres.count], within: 30_000)
            let radius = Self.radii[q % Self.radii.count]
            let filter: ((UInt32) -> Bool)? = q % 4 == 0 ? { $0 % 2 == 0 } : nil
            let hits = grid.within(center, radiusMeters: radius, limit: limit, where: filter)
            expectMatchesBruteForce(hits, points: points, center: center, radius: radius, limit: limit, filter: filter)
            // The k nearest are exactly the first k of the full answer.
            let all = grid.within(center, radiusMeters: radius, where: filter)
            #expect(hits == Array(all.prefix(limit)))
        }
    }

    @Test("cell sizes do not change answers", arguments: [0.005, 0.05, 1.0])
    func cellSizes(bandDegrees: Double) {
        let points = Self.dataset(seed: 11, count: 2_000)
        var grid = GridIndex(bandDegrees: bandDegrees, chunkFactor: 0.5)
        var reference = GridIndex()
        grid.build(points)
        reference.build(points)
        var rng = SplitMix64(seed: 12)
        for q in 0..<60 {
            let center = rng.near(Self.clusterCentres[q % Self.clusterCentres.count], within: 50_000)
            let radius = Self.radii[q % Self.radii.count]
            #expect(grid.within(center, radiusMeters: radius) == reference.within(center, radiusMeters: radius))
            #expect(grid.within(center, radiusMeters: radius, limit: 7) == reference.within(center, radiusMeters: radius, limit: 7))
        }
    }
}
