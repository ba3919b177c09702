import Testing

@testable import GeoIndex

/// Hand-picked places where grids usually break: the antimeridian, high latitudes, the poles, the equator,
/// the exact boundary, radius 0 and radii larger than the earth.
@Suite("GridIndex edge cases")
struct GridIndexEdgeCaseTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let center: Coordinate
        let radius: Double
        let points: [Coordinate]
        /// Indices into `points` that must be returned, nearest first.
        let expected: [Int]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "Fiji, centre on +180",
            center: Coordinate(latitude: -17.7, longitude: 180),
            radius: 5_000,
            points: [
                .init(latitude: -17.7, longitude: 179.99), .init(latitude: -17.7, longitude: -179.99), .init(latitude: -17.7, longitude: 179.9),
            ],
            expected: [0, 1]
        ),
        Case(
            name: "Fiji, centre on -180",
            center: Coordinate(latitude: -17.7, longitude: -180),
            radius: 5_000,
            points: [.init(latitude: -17.7, longitude: -179.99), .init(latitude: -17.7, longitude: 179.95), .init(latitude: -17.7, longitude: 180)],
            expected: [2, 0]
        ),
        Case(
            name: "Svalbard at 78°N, wide in longitude",
            center: Coordinate(latitude: 78.22, longitude: 15.65),
            radius: 20_000,
            points: [.init(latitude: 78.22, longitude: 16.45), .init(latitude: 78.22, longitude: 14.9), .init(latitude: 78.4, longitude: 15.65)],
            expected: [1, 0]
        ),
        Case(
            name: "centre at the north pole",
            center: Coordinate(latitude: 90, longitude: 0),
            radius: 2_000,
            points: [
                .init(latitude: 89.99, longitude: 0), .init(latitude: 89.99, longitude: 120), .init(latitude: 89.99, longitude: -179.5),
                .init(latitude: 89.9, longitude: 0),
            ],
            expected: [0, 1, 2]
        ),
        Case(
            name: "centre at the south pole, any longitude",
            center: Coordinate(latitude: -90, longitude: 77),
            radius: 1_200,
            points: [.init(latitude: -90, longitude: 0), .init(latitude: -89.99, longitude: 180), .init(latitude: -89.98, longitude: 33)],
            expected: [0, 1]
        ),
        Case(
            name: "circle over the north pole from 89.95°N",
            center: Coordinate(latitude: 89.95, longitude: 10),
            radius: 10_000,
            points: [
                .init(latitude: 89.99, longitude: -170), .init(latitude: 89.98, longitude: 100), .init(latitude: 89.9, longitude: -170),
                .init(latitude: 90, longitude: 0),
            ],
            expected: [3, 1, 0]
        ),
        Case(
            name: "circle over the south pole from 89.9°S",
            center: Coordinate(latitude: -89.9, longitude: -45),
            radius: 25_000,
            points: [.init(latitude: -89.95, longitude: 135), .init(latitude: -89.9, longitude: 135), .init(latitude: -89.8, longitude: 135)],
            expected: [0, 1]
        ),
        Case(
            name: "equator and prime meridian",
            center: Coordinate(latitude: 0, longitude: 0),
            radius: 1_000,
            points: [.init(latitude: 0, longitude: 0.006), .init(latitude: -0.005, longitude: 0), .init(latitude: 0.01, longitude: -0.01)],
            expected: [1, 0]
        ),
        Case(
            name: "radius 0 keeps only the same position",
            center: Coordinate(latitude: 48.85, longitude: 2.35),
            radius: 0,
            points: [.init(latitude: 48.85, longitude: 2.35), .init(latitude: 48.85, longitude: 2.3500001)],
            expected: [0]
        ),
        Case(
            name: "radius larger than half the earth",
            center: Coordinate(latitude: 10, longitude: 20),
            radius: 30_000_000,
            points: [.init(latitude: -10, longitude: -160), .init(latitude: 90, longitude: 0), .init(latitude: 10, longitude: 20)],
            expected: [2, 1, 0]
        ),
    ]

    @Test(arguments: cases)
    func table(_ c: Case) {
        var grid = GridIndex()
        let entries = c.points.enumerated().map { (key: UInt32($0.offset), coordinate: $0.element) }
        grid.build(entries)
        let hits = grid.within(c.center, radiusMeters: c.radius)
        #expect(hits.map(\.key) == c.expected.map { UInt32($0) })
        expectMatchesBruteForce(hits, points: entries, center: c.center, radius: c.radius)
        let nearest = grid.within(c.center, radiusMeters: c.radius, limit: 2)
        #expect(nearest == Array(hits.prefix(2)))
    }

    @Test("a point exactly on the boundary is included", arguments: [0.0, 45, 78.5, -60, 89.5])
    func boundary(latitude: Double) {
        let center = Coordinate(latitude: latitude, longitude: 179.999)
        let north = destination(from: center, meters: 1_000, bearing: 0)
        let east = destination(from: center, meters: 1_000, bearing: 90)
        var grid = GridIndex()
        grid.build([(1, north), (2, east)])
        for key: UInt32 in [1, 2] {
            let point = key == 1 ? north : east
            let exact = Geodesy.distanceMeters(center, point)
            #expect(grid.within(center, radiusMeters: exact).contains { $0.key == key })
            #expect(grid.within(center, radiusMeters: exact, limit: 1).first?.distanceMeters ?? .infinity <= exact)
            #expect(!grid.within(center, radiusMeters: exact.nextDown).contains { $0.key == key })
        }
        #expect(abs(Geodesy.distanceMeters(center, north) - 1_000) < 1e-6)
    }

    @Test("inputs that must not trap")
    func noTraps() {
        var grid = GridIndex()
        grid.build([(1, .init(latitude: 90, longitude: 180)), (2, .init(latitude: -90, longitude: -180)), (3, .init(latitude: 0, longitude: 180))])
        let centres = [Coordinate(latitude: 90, longitude: 180), .init(latitude: -90, longitude: -180), .init(latitude: 0, longitude: -180)]
        for centre in centres {
            for radius in [0, 1, 1e7, 2.1e7, 1e300, .infinity] {
                #expect(grid.within(centre, radiusMeters: radius).count <= 3)
                #expect(grid.within(centre, radiusMeters: radius, limit: 1).count <= 1)
            }
        }
        #expect(grid.within(.init(latitude: 0, longitude: 0), radiusMeters: .infinity).count == 3)
        // Fewer places than the limit, on a sphere-wide radius: the search must end, with all of them.
        #expect(grid.within(.init(latitude: 0, longitude: 0), radiusMeters: .infinity, limit: 10).count == 3)
        #expect(grid.within(.init(latitude: 0, longitude: 0), radiusMeters: 1e300, limit: 10, where: { $0 != 2 }).count == 2)
        #expect(grid.within(.init(latitude: .nan, longitude: 0), radiusMeters: 10).isEmpty)
        #expect(grid.within(.init(latitude: 0, longitude: 0), radiusMeters: -1).isEmpty)
        #expect(grid.within(.init(latitude: 0, longitude: 0), radiusMeters: .nan).isEmpty)
        #expect(grid.within(.init(latitude: 0, longitude: 0), radiusMeters: 1e8, limit: 0).isEmpty)
    }

    @Test("distance is symmetric and matches haversine")
    func distance() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<500 {
            let a = rng.uniformOnSphere()
            let b = rng.uniformOnSphere()
            #expect(Geodesy.distanceMeters(a, b) == Geodesy.distanceMeters(b, a))
            #expect(abs(Geodesy.distanceMeters(a, b) - haversineMeters(a, b)) < 1e-6)
        }
        #expect(Geodesy.distanceMeters(.init(latitude: 0, longitude: 0), .init(latitude: 0, longitude: 180)) == Geodesy.earthRadiusMeters * .pi)
    }
}
