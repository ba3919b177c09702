import Testing

@testable import GeoIndex

/// A cell's cheap interior test against the cell worked out in full: every point it holds is in the cell, at every
/// zoom, near edges (to a millionth of a degree), at the poles and on the antimeridian.
@Suite("Map grid: a cell's interior")
struct MapGridInteriorTests {
    @Test("a point the interior holds is in the cell, and most points of a cell are held")
    func interiorIsInside() {
        var rng = SplitMix64(seed: 5)
        var held = 0
        var total = 0
        for _ in 0..<20_000 {
            let zoom = Int.random(in: 0...20, using: &rng)
            let point = rng.uniformOnSphere()
            let cell = MapGrid.cell(point, zoom: zoom)
            let bounds = cell.bounds
            // The point itself, and points at and a hair either side of the cell's edges and corners.
            var probes = [point]
            for latitude in [bounds.south, bounds.north, point.latitude] {
                for longitude in [bounds.west, bounds.east, point.longitude] {
                    for nudge in [-1e-6, -1e-12, 0, 1e-12, 1e-6] {
                        probes.append(Coordinate(latitude: min(90, max(-90, latitude + nudge)), longitude: min(180, max(-180, longitude - nudge))))
                    }
                }
            }
            let interior = cell.interior
            for probe in probes {
                let v = UnitVector(probe)
                guard interior.contains(x: v.x, y: v.y, z: v.z) else { continue }
                #expect(MapGrid.cell(x: v.x, y: v.y, z: v.z, zoom: zoom) == cell, "\(probe) zoom \(zoom) \(bounds)")
            }
            total += 1
            let v = UnitVector(point)
            if interior.contains(x: v.x, y: v.y, z: v.z) { held += 1 }
        }
        // Only points within a few millimetres of an edge are left to the full test.
        #expect(held > total * 99 / 100)
    }
}
