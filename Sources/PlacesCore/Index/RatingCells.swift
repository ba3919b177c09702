import GeoIndex

/// The best ratings of the places in each cell of the map's grid at zoom 13 (about a kilometre across at mid
/// latitudes), per kind: the finest bounds of discover's walk (`PlaceTable.nearbyFromCells`), below `MapCells`' zoom
/// 10, whose cells in a city hold thousands of places each.
///
/// The index keeps it in step with the feed: a place that enters a cell, or whose rating rises, is counted in at once;
/// a change that may lower a cell's bests (a place leaves it, or falls from its best) marks it, and `repair` works each
/// marked cell out again from a scan of it once the change set is in. Only cells holding places are kept, in
/// `MapCells`' 1,024 shards (sorted arrays, `CellShard`), so a copy-on-write change copies a few small shards.
struct RatingCells: Sendable {
    /// The zoom of the cells.
    static let zoom = 13
    private var shards: [CellShard<Record>]
    /// Cells a change set touched, to work out again.
    private var stale: Set<MapGrid.Cell> = []

    /// A cell's bests, per kind; a kind with no place in the cell has a score of -infinity.
    struct Record: Sendable, Equatable {
        var gems = RatingBests()
        var restaurants = RatingBests()

        subscript(kind: PlaceKind) -> RatingBests {
            get { kind == .gem ? gems : restaurants }
            set {
                if kind == .gem { gems = newValue } else { restaurants = newValue }
            }
        }

        /// The bests of one kind, or of both.
        func bests(_ kind: PlaceKind?) -> RatingBests {
            if let kind { return self[kind] }
            var both = gems
            both.merge(restaurants)
            return both
        }
    }

    init() {
        shards = Array(repeating: CellShard(), count: MapCells.shardCount)
    }

    /// The bests of every place.
    init(_ places: [(coordinate: Coordinate, kind: PlaceKind, rating: RatingAggregate)]) {
        var cells: [UInt64: Record] = [:]
        for place in places {
            guard let key = RatingCells.cell(of: place.coordinate)?.key else { continue }
            cells[key, default: Record()][place.kind].rate(place.rating)
        }
        shards = CellShard.sharded(cells.map { (key: $0.key, record: $0.value) })
    }

    /// The cell of zoom 13 holding a coordinate, from its unit vector as the grid keeps it; nil for an invalid one.
    static func cell(of coordinate: Coordinate) -> MapGrid.Cell? {
        guard coordinate.isValid else { return nil }
        let v = Geodesy.unitVector(coordinate)
        return MapGrid.cell(x: v.x, y: v.y, z: v.z, zoom: zoom)
    }

    /// The bests of a cell of zoom 13; nil when it holds no place.
    func record(_ cell: MapGrid.Cell) -> Record? {
        shards[MapCells.shard(cell.key)][cell.key]
    }

    /// Marks the cell holding a coordinate, which a place leaves.
    mutating func touch(_ coordinate: Coordinate) {
        if let cell = RatingCells.cell(of: coordinate) { stale.insert(cell) }
    }

    /// Counts a place that enters the cell holding a coordinate in at once (a cell marked already waits for `repair`).
    mutating func add(_ coordinate: Coordinate, kind: PlaceKind, rating: RatingAggregate) {
        guard let cell = RatingCells.cell(of: coordinate), !stale.contains(cell) else { return }
        let shard = MapCells.shard(cell.key)
        var record = shards[shard][cell.key] ?? Record()
        record[kind].rate(rating)
        shards[shard][cell.key] = record
    }

    /// A place's rating changed from `old` to `new`: its cell's bests change at once when that can be told without the
    /// cell's other places (`RatingBests.rerated`), or the cell is marked for `repair`.
    mutating func rerate(_ coordinate: Coordinate, kind: PlaceKind, from old: RatingAggregate, to new: RatingAggregate) {
        guard let cell = RatingCells.cell(of: coordinate), !stale.contains(cell) else { return }
        let shard = MapCells.shard(cell.key)
        guard var record = shards[shard][cell.key],
            let bests = record[kind].rerated(from: RatingBests(old), to: RatingBests(new))
        else {
            stale.insert(cell)
            return
        }
        record[kind] = bests
        shards[shard][cell.key] = record
    }

    /// Works out again every marked cell's bests from `scan` (its places as the index holds them now; nil for none).
    mutating func repair(scan: (MapGrid.Cell) -> Record?) {
        for cell in stale { shards[MapCells.shard(cell.key)][cell.key] = scan(cell) }
        stale = []
    }

    /// Bytes held, by capacity (for the memory figures): the list of shards, each shard's arrays and the set of cells
    /// to repair.
    var memoryBytes: Int {
        shards.reduce(HeapCensus.array(shards) + HeapCensus.set(stale)) { $0 + $1.memoryBytes }
    }
}
