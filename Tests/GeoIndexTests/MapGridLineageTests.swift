import Testing

@testable import GeoIndex

/// A cell's lineage (the cells above it that hold it) against the grid's own cell of the same point at each zoom.
@Suite("Map grid: a cell's lineage")
struct MapGridLineageTests {
    @Test("a point's finest cell's lineage is the point's cell at every zoom, finest first, down to zoom 0")
    func lineageIsThePointsCellAtEveryZoom() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<2_000 {
            let point = rng.uniformOnSphere()
            let finest = Int.random(in: 0...20, using: &rng)
            let lineage = Array(MapGrid.cell(point, zoom: finest).lineage)
            #expect(lineage == (0...finest).reversed().map { MapGrid.cell(point, zoom: $0) }, "\(point) zoom \(finest)")
        }
    }
}
