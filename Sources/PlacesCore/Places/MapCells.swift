import GeoIndex

/// What a map's cell holds of one kind of place: how many, and the sum of their unit vectors (whose direction is
/// their mean position on the sphere).
struct KindTotals: Sendable, Hashable {
    var count: Int32 = 0
    var x = 0.0
    var y = 0.0
    var z = 0.0

    mutating func add(_ v: (x: Double, y: Double, z: Double), _ sign: Int32) {
        count += sign
        x += Double(sign) * v.x
        y += Double(sign) * v.y
        z += Double(sign) * v.z
    }

    mutating func add(_ other: KindTotals) {
        count += other.count
        x += other.x
        y += other.y
        z += other.z
    }
}

/// A cell's totals, per kind.
struct CellTotals: Sendable, Hashable {
    var gems = KindTotals()
    var restaurants = KindTotals()

    /// The totals of one kind, or of both.
    func of(_ kind: PlaceKind?) -> KindTotals {
        switch kind {
        case .gem: return gems
        case .restaurant: return restaurants
        case nil:
            var both = gems
            both.add(restaurants)
            return both
        }
    }

    var isEmpty: Bool { gems.count == 0 && restaurants.count == 0 }

    mutating func add(_ v: (x: Double, y: Double, z: Double), kind: PlaceKind, _ sign: Int32) {
        switch kind {
        case .gem: gems.add(v, sign)
        case .restaurant: restaurants.add(v, sign)
        }
    }
}

/// The places counted per cell of the map's grid (`MapGrid`), per kind, at every coarse zoom (0 through
/// `finestZoom`): the clusters of a continent come from a few hundred cells, not from a scan of a million places.
///
/// The index keeps it in step with the feed: every place that enters, moves, changes kind or leaves adds to or takes
/// from one cell per zoom. Only non-empty cells are kept, in 1,024 shards, so a copy-on-write change copies a few
/// small shards. Positions are summed as unit vectors, so counts are exact and a mean never breaks at the
/// antimeridian; boxes and members are found at query time.
struct MapCells: Sendable {
    /// The finest zoom counted; finer zooms scan their box.
    static let finestZoom = 10
    private static var shardCount: Int { 1_024 }
    private var shards: [[UInt64: CellTotals]]

    init() {
        shards = Array(repeating: [:], count: MapCells.shardCount)
    }

    /// Counts every place, finest zoom first, each coarser zoom from the one below it.
    init(_ places: [(coordinate: Coordinate, kind: PlaceKind)]) {
        self.init()
        var level: [MapGrid.Cell: CellTotals] = [:]
        for place in places where place.coordinate.isValid {
            let cell = MapGrid.cell(place.coordinate, zoom: MapCells.finestZoom)
            level[cell, default: CellTotals()].add(Geodesy.unitVector(place.coordinate), kind: place.kind, 1)
        }
        for zoom in (0...MapCells.finestZoom).reversed() {
            var coarser: [MapGrid.Cell: CellTotals] = [:]
            for (cell, totals) in level {
                shards[MapCells.shard(cell.key)][cell.key] = totals
                guard zoom > 0 else { continue }
                var sum = coarser[cell.parent, default: CellTotals()]
                sum.gems.add(totals.gems)
                sum.restaurants.add(totals.restaurants)
                coarser[cell.parent] = sum
            }
            level = coarser
        }
    }

    /// The totals of a cell; nil when it holds no place.
    func totals(_ cell: MapGrid.Cell) -> CellTotals? {
        shards[MapCells.shard(cell.key)][cell.key]
    }

    /// Counts a place in, at every zoom.
    mutating func add(_ coordinate: Coordinate, kind: PlaceKind) {
        change(coordinate, kind: kind, 1)
    }

    /// Counts a place out, at every zoom.
    mutating func remove(_ coordinate: Coordinate, kind: PlaceKind) {
        change(coordinate, kind: kind, -1)
    }

    private mutating func change(_ coordinate: Coordinate, kind: PlaceKind, _ sign: Int32) {
        guard coordinate.isValid else { return }
        let v = Geodesy.unitVector(coordinate)
        var cell = MapGrid.cell(coordinate, zoom: MapCells.finestZoom)
        while true {
            let key = cell.key
            let shard = MapCells.shard(key)
            var totals = shards[shard][key] ?? CellTotals()
            totals.add(v, kind: kind, sign)
            // An emptied cell goes, sums and all: what rounding left in them must not outlive its places.
            shards[shard][key] = totals.isEmpty ? nil : totals
            guard cell.zoom > 0 else { return }
            cell = cell.parent
        }
    }

    /// Bytes held, by capacity (for the memory figures).
    var memoryBytes: Int {
        shards.reduce(0) { $0 + $1.capacity * (MemoryLayout<UInt64>.stride + MemoryLayout<CellTotals>.stride + 1) }
    }

    @inline(__always)
    private static func shard(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 54)
    }
}
