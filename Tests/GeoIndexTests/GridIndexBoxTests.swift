import Testing

@testable import GeoIndex

/// Box queries against brute force: random boxes over worldwide and clustered points, boxes across the antimeridian,
/// reaching the poles, and edges that fall exactly on points.
@Suite("GridIndex boxes match brute force")
struct GridIndexBoxTests {
    /// The keys a brute force finds in the box.
    static func bruteForce(_ points: [(key: UInt32, coordinate: Coordinate)], _ box: GeoBox) -> [UInt32] {
        points.filter { box.contains($0.coordinate) }.map(\.key).sorted()
    }

    /// The keys the index finds in the box, each once.
    static func found(_ grid: GridIndex, _ points: [(key: UInt32, coordinate: Coordinate)], _ box: GeoBox) -> [UInt32] {
        var keys: [UInt32] = []
        let coordinate: (UInt32) -> Coordinate = { points[Int($0)].coordinate }
        grid.forEachKey(in: box, coordinate: coordinate) { keys.append($0) }
        return keys.sorted()
    }

    @Test("random boxes, crossing the antimeridian and reaching the poles")
    func randomBoxes() {
        let points = GridIndexPropertyTests.dataset(seed: 11, count: 6_000)
        var grid = GridIndex()
        grid.build(points)
        var rng = SplitMix64(seed: 12)
        for q in 0..<300 {
            let centre = q % 2 == 0 ? rng.uniformOnSphere() : rng.near(GridIndexPropertyTests.clusterCentres[q % 6], within: 30_000)
            let height = [0.01, 0.5, 3, 40, 180][q % 5]
            let width = [0.02, 1, 10, 120, 359][q % 5]
            var west = centre.longitude - width / 2
            var east = centre.longitude + width / 2
            if west < -180 { west += 360 }
            if east > 180 { east -= 360 }
            let box = GeoBox(
                west: west,
                south: max(-90, centre.latitude - height / 2),
                east: east,
                north: min(90, centre.latitude + height / 2)
            )
            #expect(Self.found(grid, points, box) == Self.bruteForce(points, box), "box \(box)")
        }
    }

    @Test("edges on points: a point on an edge is inside, once")
    func edgesOnPoints() {
        let points = GridIndexPropertyTests.dataset(seed: 13, count: 2_000)
        var grid = GridIndex()
        grid.build(points)
        for (i, point) in points.enumerated() where i % 20 == 0 {
            let c = point.coordinate
            let other = points[(i + 7) % points.count].coordinate
            // The point as each edge in turn, the other corner taken from another point (so some boxes cross).
            for box in [
                GeoBox(west: c.longitude, south: min(c.latitude, other.latitude), east: other.longitude, north: max(c.latitude, other.latitude)),
                GeoBox(west: other.longitude, south: c.latitude, east: c.longitude, north: max(c.latitude, other.latitude)),
                GeoBox(west: c.longitude, south: c.latitude, east: c.longitude, north: c.latitude),
            ] where box.isValid {
                let keys = Self.found(grid, points, box)
                #expect(keys == Self.bruteForce(points, box), "box \(box)")
                #expect(keys.contains(point.key))
            }
        }
    }

    @Test("the whole world, the antimeridian's two sides, and invalid boxes")
    func wholeWorld() {
        let points =
            GridIndexPropertyTests.dataset(seed: 14, count: 3_000) + [
                (3_000, Coordinate(latitude: 10, longitude: 180)), (3_001, Coordinate(latitude: 10, longitude: -180)),
                (3_002, Coordinate(latitude: 90, longitude: 0)), (3_003, Coordinate(latitude: -90, longitude: 0)),
            ]
        var grid = GridIndex()
        grid.build(points)
        let world = GeoBox(west: -180, south: -90, east: 180, north: 90)
        #expect(Self.found(grid, points, world).count == points.count)
        // Both sides of the antimeridian, and only them.
        let across = GeoBox(west: 179.9, south: 9, east: -179.9, north: 11)
        #expect(Self.found(grid, points, across) == Self.bruteForce(points, across))
        #expect(Self.found(grid, points, across).contains(3_000) && Self.found(grid, points, across).contains(3_001))
        // A crossing box whose edges nearly meet holds everything but a sliver, each point once.
        let nearlyAll = GeoBox(west: 10.00005, south: -90, east: 10, north: 90)
        #expect(Self.found(grid, points, nearlyAll) == Self.bruteForce(points, nearlyAll))
        for invalid in [
            GeoBox(west: 0, south: 10, east: 1, north: 9), GeoBox(west: 0, south: .nan, east: 1, north: 9),
            GeoBox(west: 0, south: -91, east: 1, north: 9), GeoBox(west: -181, south: 0, east: 1, north: 9),
        ] {
            #expect(Self.found(grid, points, invalid).isEmpty)
        }
    }
}
