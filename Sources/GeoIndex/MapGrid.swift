#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The grid a map's clusters come from: at each zoom, Web Mercator's square cut into 2^(zoom+2) × 2^(zoom+2) cells
/// (64 pixels of a 256-pixel tile), so a cell depends only on the zoom and panning never reshuffles clusters.
///
/// Rows count from the north. Mercator ends at ±85.0511°: the first and last rows reach on to the poles, so every
/// coordinate has a cell. A cell at one zoom is exactly four cells of the next.
public enum MapGrid {
    /// The zooms a map asks for.
    public static let zooms = 0...20

    /// Where Web Mercator ends, in degrees of latitude.
    public static let mercatorLimit = 85.0511287798066

    /// A cell: its zoom, row (from the north) and column (from the antimeridian, eastwards).
    public struct Cell: Sendable, Hashable, Comparable {
        public let zoom: Int
        public let row: Int
        public let column: Int

        public init(zoom: Int, row: Int, column: Int) {
            self.zoom = zoom
            self.row = row
            self.column = column
        }

        /// One number per cell, unique across zooms (for keys).
        public var key: UInt64 { UInt64(zoom) << 56 | UInt64(row) << 28 | UInt64(column) }

        /// The cell of the zoom above that holds it.
        public var parent: Cell { Cell(zoom: zoom - 1, row: row >> 1, column: column >> 1) }

        /// The cell and every cell above it that holds it, up to zoom 0, finest first.
        public var lineage: UnfoldFirstSequence<Cell> { sequence(first: self) { $0.zoom > 0 ? $0.parent : nil } }

        /// The four cells of the next zoom it is made of, north-west first, row by row.
        public var children: [Cell] {
            [(0, 0), (0, 1), (1, 0), (1, 1)].map { Cell(zoom: zoom + 1, row: row << 1 + $0.0, column: column << 1 + $0.1) }
        }

        /// The cell's extent: longitudes exactly, latitudes from the inverse projection (the edge rows to the poles).
        public var bounds: GeoBox {
            let n = Double(MapGrid.cellsPerSide(zoom))
            let west = Double(column) / n * 360 - 180
            let east = Double(column + 1) / n * 360 - 180
            let north = row == 0 ? 90 : MapGrid.latitude(ofRow: Double(row), n: n)
            let south = row + 1 == MapGrid.cellsPerSide(zoom) ? -90 : MapGrid.latitude(ofRow: Double(row + 1), n: n)
            return GeoBox(west: west, south: south, east: east, north: north)
        }

        /// A cheap test that a point lies well inside the cell (see `Interior`).
        public var interior: Interior { Interior(bounds) }

        public static func < (a: Cell, b: Cell) -> Bool {
            (a.zoom, a.row, a.column) < (b.zoom, b.row, b.column)
        }
    }

    /// Which unit vectors lie well inside a cell, decided with a few multiplications instead of `cell(x:y:z:zoom:)`'s
    /// arctangent and logarithm: z between the sines of the edge latitudes, and the point east of the west edge's
    /// meridian plane and west of the east edge's (a cell is at most 90° wide), each by a margin (about 6 mm) far above
    /// the rounding of either computation. A point it does not hold may still be in the cell: ask `cell(x:y:z:zoom:)`.
    public struct Interior: Sendable {
        private let zLow: Double
        private let zHigh: Double
        private let westSine: Double
        private let westCosine: Double
        private let eastSine: Double
        private let eastCosine: Double
        private static let margin = 1e-9

        init(_ bounds: GeoBox) {
            let degrees = Double.pi / 180
            zLow = sin(bounds.south * degrees) + Interior.margin
            zHigh = sin(bounds.north * degrees) - Interior.margin
            westSine = sin(bounds.west * degrees)
            westCosine = cos(bounds.west * degrees)
            eastSine = sin(bounds.east * degrees)
            eastCosine = cos(bounds.east * degrees)
        }

        /// True when the point of the unit vector is surely in the cell.
        @inline(__always)
        public func contains(x: Double, y: Double, z: Double) -> Bool {
            // cos φ · sin(λ − west) and cos φ · sin(east − λ): both positive only between the edges.
            z > zLow && z < zHigh && y * westCosine - x * westSine > Interior.margin && x * eastSine - y * eastCosine > Interior.margin
        }
    }

    /// Cells on each side of the square at a zoom.
    @inline(__always)
    public static func cellsPerSide(_ zoom: Int) -> Int { 1 << (zoom + 2) }

    /// The cell holding a coordinate at a zoom.
    ///
    /// It is worked out from the coordinate's unit vector, which the grid index keeps for every place, so a scan of
    /// the index puts each place in the cell its counts were kept in, to the last bit.
    @inline(__always)
    public static func cell(_ coordinate: Coordinate, zoom: Int) -> Cell {
        let v = UnitVector(coordinate)
        return cell(x: v.x, y: v.y, z: v.z, zoom: zoom)
    }

    /// The cell holding the point of a unit vector (as `GridIndex.forEachPoint` gives it) at a zoom.
    @inline(__always)
    public static func cell(x: Double, y: Double, z: Double, zoom: Int) -> Cell {
        cell(sinLatitude: z, longitude: atan2(y, x) * (180 / Double.pi), zoom: zoom)
    }

    /// The cell holding a point given by the sine of its latitude (a unit vector's z) and its longitude.
    @inline(__always)
    static func cell(sinLatitude: Double, longitude: Double, zoom: Int) -> Cell {
        let n = cellsPerSide(zoom)
        let size = Double(n)
        // Mercator's y is atanh(sin φ); past the limit (and at the poles, where it is infinite) the edge rows. Written
        // so that infinities and NaN land in an edge cell instead of trapping in Int(_:).
        let s = min(max(sinLatitude, -1), 1)
        let y = 0.5 * log((1 + s) / (1 - s))
        return Cell(zoom: zoom, row: index((1 - y / Double.pi) / 2 * size, n), column: index((longitude + 180) / 360 * size, n))
    }

    /// The whole part of `value`, within 0 ..< n (NaN gives 0).
    @inline(__always)
    private static func index(_ value: Double, _ n: Int) -> Int {
        guard value > 0 else { return 0 }
        return value < Double(n) ? Int(value) : n - 1
    }

    /// The cells of a zoom that a box touches: each row's columns, one range or two across the antimeridian.
    public static func cells(in box: GeoBox, zoom: Int) -> [Cell] {
        guard box.isValid else { return [] }
        let north = cell(Coordinate(latitude: box.north, longitude: box.west), zoom: zoom)
        let south = cell(Coordinate(latitude: box.south, longitude: box.east), zoom: zoom)
        var found: [Cell] = []
        for row in north.row...south.row {
            for range in columnRanges(west: north.column, east: south.column, crossesAntimeridian: box.crossesAntimeridian, zoom: zoom) {
                for column in range { found.append(Cell(zoom: zoom, row: row, column: column)) }
            }
        }
        return found
    }

    /// The columns from the west edge's to the east edge's, west to east, each once: across the antimeridian, the
    /// columns from the west edge's to the last and from the first to the east edge's; when those two meet (a box
    /// that wraps almost the whole world, whose gap lies inside one column), every column once, from the west edge's.
    static func columnRanges(west: Int, east: Int, crossesAntimeridian: Bool, zoom: Int) -> [ClosedRange<Int>] {
        guard crossesAntimeridian else { return [west...east] }
        let last = cellsPerSide(zoom) - 1
        guard east >= west else { return [west...last, 0...east] }
        return west == 0 ? [0...last] : [west...last, 0...(west - 1)]
    }

    /// How many cells of a zoom a box touches (without listing them).
    public static func cellCount(in box: GeoBox, zoom: Int) -> Int {
        guard box.isValid else { return 0 }
        let north = cell(Coordinate(latitude: box.north, longitude: box.west), zoom: zoom)
        let south = cell(Coordinate(latitude: box.south, longitude: box.east), zoom: zoom)
        let rows = south.row - north.row + 1
        let columns = columnRanges(west: north.column, east: south.column, crossesAntimeridian: box.crossesAntimeridian, zoom: zoom)
        return rows * columns.reduce(0) { $0 + $1.count }
    }

    /// The latitude (degrees) of a row edge `row` of `n` rows.
    static func latitude(ofRow row: Double, n: Double) -> Double {
        let y = Double.pi * (1 - 2 * row / n)
        return atan(sinh(y)) * (180 / Double.pi)
    }
}
