import Foundation
import GeoIndex

/// A side of a cell or cluster, towards which its extreme place lies.
///
/// Places are compared by their unit vectors, as the grid index keeps them (latitude by z, longitude by the vector's
/// angle), so a scan of the index and the counts kept per cell rank places alike, to the last bit.
enum MapSide: Int, CaseIterable, Sendable {
    case south, north, west, east

    /// How far to this side a unit vector lies: larger is further.
    @inline(__always)
    func reach(_ x: Double, _ y: Double, _ z: Double) -> Double {
        switch self {
        case .south: return -z
        case .north: return z
        case .west: return -atan2(y, x)
        case .east: return atan2(y, x)
        }
    }
}

/// How the index's places are looked up by slot while cells are counted: exact coordinates and ids.
struct SlotLookup {
    let coordinate: (UInt32) -> Coordinate
    let id: (UInt32) -> String
    /// A slot's unit vector: `Geodesy.unitVector` of its coordinate, or read from where it was worked out already.
    let unitVector: (UInt32) -> (x: Double, y: Double, z: Double)

    init(coordinate: @escaping (UInt32) -> Coordinate, id: @escaping (UInt32) -> String) {
        self.coordinate = coordinate
        self.id = id
        unitVector = { Geodesy.unitVector(coordinate($0)) }
    }

    /// The same lookup, reading the unit vectors of slots `0..<vectors.count` from `vectors`.
    init(_ lookup: SlotLookup, vectors: [(x: Double, y: Double, z: Double)]) {
        coordinate = lookup.coordinate
        id = lookup.id
        let computed = lookup.unitVector
        unitVector = { slot in Int(slot) < vectors.count ? vectors[Int(slot)] : computed(slot) }
    }

    /// How far to `side` a slot's place lies.
    @inline(__always)
    func reach(_ slot: UInt32, _ side: MapSide) -> Double {
        let v = unitVector(slot)
        return side.reach(v.x, v.y, v.z)
    }

    /// True when slot `a` lies further to `side` than slot `b`; ties go to the smaller id.
    @inline(__always)
    func prefers(_ a: UInt32, over b: UInt32, _ side: MapSide) -> Bool {
        let p = reach(a, side)
        let q = reach(b, side)
        return p != q ? p > q : id(a) < id(b)
    }
}

/// What a map's cell holds of one kind of place: how many, the sum of their unit vectors (whose direction is their
/// mean position on the sphere), the slots of the places furthest to each side (ties: the smallest id), from which
/// its members' box and the member it names (the southernmost) come, and the best score and best average rating among
/// them, which bound what nearby can find in it (`PlaceTable.nearbyFromCells`).
struct KindCell: Sendable {
    var count: Int32 = 0
    var extremes = SideSlots()
    var bests = RatingBests()
    var x = 0.0
    var y = 0.0
    var z = 0.0

    /// A cell of one place.
    init(slot: UInt32, _ v: (x: Double, y: Double, z: Double), rating: RatingAggregate) {
        count = 1
        extremes = SideSlots(south: slot, north: slot, west: slot, east: slot)
        x = v.x
        y = v.y
        z = v.z
        bests.rate(rating)
    }

    init() {}

    /// Takes in the extremes and bests of another cell's places, counted here already.
    mutating func takeIn(_ other: KindCell, _ lookup: SlotLookup) {
        bests.merge(other.bests)
        for side in MapSide.allCases where lookup.prefers(other.extremes[side.rawValue], over: extremes[side.rawValue], side) {
            extremes[side.rawValue] = other.extremes[side.rawValue]
        }
    }

    /// Adds another cell's places (its extremes compete with these).
    mutating func merge(_ other: KindCell, _ lookup: SlotLookup) {
        guard other.count > 0 else { return }
        guard count > 0 else {
            self = other
            return
        }
        count += other.count
        x += other.x
        y += other.y
        z += other.z
        takeIn(other, lookup)
    }
}

/// The best score and the best average rating among some places, each rounded up to a Float, so that eight bytes still
/// bound them: no place among them scores more, or is rated more on average. They bound what nearby can find in a cell
/// (`PlaceTable.nearbyFromCells`).
struct RatingBests: Sendable, Equatable {
    var score = -Float.infinity
    /// -infinity when none is rated.
    var average = -Float.infinity

    /// Counts a place's rating in.
    @inline(__always)
    mutating func rate(_ rating: RatingAggregate) {
        score = max(score, RatingBests.roundedUp(rating.score))
        if let value = rating.average { average = max(average, RatingBests.roundedUp(value)) }
    }

    /// Counts other places' bests in.
    @inline(__always)
    mutating func merge(_ other: RatingBests) {
        score = max(score, other.score)
        average = max(average, other.average)
    }

    /// The bests of one place rated so.
    init(_ rating: RatingAggregate) {
        rate(rating)
    }

    init() {}

    /// These bests once one of their places, whose own bests were `old`, has `new` ones; nil when that cannot be told
    /// without the other places: the place held a best and fell below it.
    func rerated(from old: RatingBests, to new: RatingBests) -> RatingBests? {
        func best(_ held: Float, _ old: Float, _ new: Float) -> Float? {
            if new >= old { return max(held, new) }
            return old < held ? held : nil
        }
        guard let score = best(score, old.score, new.score), let average = best(average, old.average, new.average) else { return nil }
        var bests = self
        bests.score = score
        bests.average = average
        return bests
    }

    /// The nearest Float not below `value`.
    @inline(__always)
    static func roundedUp(_ value: Double) -> Float {
        let rounded = Float(value)
        return Double(rounded) < value ? rounded.nextUp : rounded
    }
}

/// A slot for each side (four words, not a vector: a vector's 16-byte alignment would pad every cell).
struct SideSlots: Sendable {
    var south: UInt32 = 0
    var north: UInt32 = 0
    var west: UInt32 = 0
    var east: UInt32 = 0

    /// The slot of the side whose `rawValue` is `side`.
    subscript(side: Int) -> UInt32 {
        get {
            switch side {
            case 0: return south
            case 1: return north
            case 2: return west
            default: return east
            }
        }
        set {
            switch side {
            case 0: south = newValue
            case 1: north = newValue
            case 2: west = newValue
            default: east = newValue
            }
        }
    }
}

/// A cell's places, per kind.
struct CellRecord: Sendable {
    var gems = KindCell()
    var restaurants = KindCell()

    subscript(kind: PlaceKind) -> KindCell {
        get { kind == .gem ? gems : restaurants }
        set {
            if kind == .gem { gems = newValue } else { restaurants = newValue }
        }
    }

    /// The places of one kind, or of both.
    func of(_ kind: PlaceKind?, _ lookup: SlotLookup) -> KindCell {
        if let kind { return self[kind] }
        var both = gems
        both.merge(restaurants, lookup)
        return both
    }

    /// How many places of one kind, or of both.
    func count(_ kind: PlaceKind?) -> Int32 {
        kind.map { self[$0].count } ?? gems.count + restaurants.count
    }

    /// The best score and the best average rating among the places of one kind, or of both.
    func bests(_ kind: PlaceKind?) -> RatingBests {
        if let kind { return self[kind].bests }
        var both = gems.bests
        both.merge(restaurants.bests)
        return both
    }
}

/// The places counted per cell of the map's grid (`MapGrid`), per kind, at every coarse zoom (0 through
/// `finestZoom`): the clusters of a continent come from a few hundred cells, not from a scan of a million places.
///
/// The index keeps it in step with the feed: a place that enters, moves, changes kind or leaves adds to or takes from
/// one cell per zoom. A place that enters, or whose rating rises, is taken into its cells' extremes and best ratings at
/// once. Every cell that may have lost its extremes or a best (a place left it, or fell from its best) is worked out
/// again once the set is in (comparing places as the set leaves them): a cell of the finest zoom from a scan of its
/// area, a coarser one from its four finer cells. Only non-empty cells are kept, in 1,024
/// shards (sorted arrays, `CellShard`), so a copy-on-write change copies a few small shards.
struct MapCells: Sendable {
    /// The finest zoom counted; finer zooms scan their box.
    static let finestZoom = 10
    static var shardCount: Int { 1_024 }
    private var shards: [CellShard<CellRecord>]
    /// Cells (and kinds) a place left, or fell from a best rating in, in the change set being applied: `repair` works
    /// their extremes and best ratings out again.
    private var stale: Set<Stale> = []

    private struct Stale: Hashable {
        let cell: MapGrid.Cell
        let kind: PlaceKind
    }

    init() {
        shards = Array(repeating: CellShard(), count: MapCells.shardCount)
    }

    /// Counts every place, finest zoom first, each coarser zoom from the one below it.
    ///
    /// Each place's unit vector is worked out once, up front, for the slots the places hold from 0 (a whole load's):
    /// the extremes' comparisons read it rather than work it out again from the coordinate at each merge, eight times
    /// a place at the finest zoom (they were a third of the cells' time at start-up).
    init(_ places: [(slot: UInt32, coordinate: Coordinate, kind: PlaceKind, rating: RatingAggregate)], _ lookup: SlotLookup) {
        self.init()
        let slots = places.reduce(0) { max($0, Int($1.slot) + 1) }
        var vectors = [(x: Double, y: Double, z: Double)](repeating: (.nan, .nan, .nan), count: slots <= 2 * places.count ? slots : 0)
        if !vectors.isEmpty {
            for place in places { vectors[Int(place.slot)] = Geodesy.unitVector(place.coordinate) }
        }
        let lookup = SlotLookup(lookup, vectors: vectors)
        var level: [MapGrid.Cell: CellRecord] = [:]
        for place in places where place.coordinate.isValid {
            let v = vectors.isEmpty ? Geodesy.unitVector(place.coordinate) : vectors[Int(place.slot)]
            let cell = MapGrid.cell(x: v.x, y: v.y, z: v.z, zoom: MapCells.finestZoom)
            level[cell, default: CellRecord()][place.kind].merge(KindCell(slot: place.slot, v, rating: place.rating), lookup)
        }
        var cells: [(key: UInt64, record: CellRecord)] = []
        for zoom in (0...MapCells.finestZoom).reversed() {
            var coarser: [MapGrid.Cell: CellRecord] = [:]
            for (cell, record) in level {
                cells.append((cell.key, record))
                guard zoom > 0 else { continue }
                var sum = coarser[cell.parent, default: CellRecord()]
                sum.gems.merge(record.gems, lookup)
                sum.restaurants.merge(record.restaurants, lookup)
                coarser[cell.parent] = sum
            }
            level = coarser
        }
        shards = CellShard.sharded(cells)
    }

    /// The places of a cell; nil when it holds none.
    func record(_ cell: MapGrid.Cell) -> CellRecord? {
        shards[MapCells.shard(cell.key)][cell.key]
    }

    /// Counts a new place in, at every zoom, and takes it into its cells' extremes and best ratings at once: a place
    /// added can only push a cell's sides out and its bests up, so only a cell marked already (a place left it, or fell
    /// from its best, in the same change set) waits for `repair`. A finest cell in a city holds thousands of places, and its
    /// scan was a fifth of the server's CPU under a load of new places.
    mutating func add(_ coordinate: Coordinate, kind: PlaceKind, slot: UInt32, rating: RatingAggregate, _ lookup: SlotLookup) {
        count(coordinate, kind: kind, 1, adding: (slot, rating, lookup))
    }

    /// Counts a place out, at every zoom; its cells' extremes are worked out again by `repair`.
    mutating func remove(_ coordinate: Coordinate, kind: PlaceKind) {
        count(coordinate, kind: kind, -1)
    }

    /// A place's rating changed from `old` to `new`: its cells' best ratings, at every zoom, change at once when that
    /// can be told without their other places (`RatingBests.rerated`); the others are marked for `repair`.
    mutating func rerate(_ coordinate: Coordinate, kind: PlaceKind, from old: RatingAggregate, to new: RatingAggregate) {
        guard coordinate.isValid else { return }
        let (before, after) = (RatingBests(old), RatingBests(new))
        let v = Geodesy.unitVector(coordinate)
        for cell in MapGrid.cell(x: v.x, y: v.y, z: v.z, zoom: MapCells.finestZoom).lineage {
            let key = cell.key
            let shard = MapCells.shard(key)
            let marked = Stale(cell: cell, kind: kind)
            if var record = shards[shard][key], record[kind].count > 0, !stale.contains(marked) {
                if let bests = record[kind].bests.rerated(from: before, to: after) {
                    record[kind].bests = bests
                    shards[shard][key] = record
                } else {
                    stale.insert(marked)
                }
            }
        }
    }

    /// Adds a place to (`sign` 1) or takes it from (-1) its cell at every zoom, finest first. The count and the sums
    /// change here. A new place (`place`) is taken into each cell's extremes and best ratings at once, unless the cell
    /// is marked; otherwise the cell is marked for `repair`, which works its extremes and best ratings out once the
    /// change set is in.
    private mutating func count(
        _ coordinate: Coordinate,
        kind: PlaceKind,
        _ sign: Int32,
        adding place: (slot: UInt32, rating: RatingAggregate, lookup: SlotLookup)? = nil
    ) {
        guard coordinate.isValid else { return }
        let v = Geodesy.unitVector(coordinate)
        for cell in MapGrid.cell(x: v.x, y: v.y, z: v.z, zoom: MapCells.finestZoom).lineage {
            let key = cell.key
            let shard = MapCells.shard(key)
            var record = shards[shard][key] ?? CellRecord()
            var kept = record[kind]
            kept.count += sign
            kept.x += Double(sign) * v.x
            kept.y += Double(sign) * v.y
            kept.z += Double(sign) * v.z
            let marked = Stale(cell: cell, kind: kind)
            if kept.count <= 0 {
                // An emptied cell goes, sums and all: what rounding left in them must not outlive its places.
                kept = KindCell()
                stale.remove(marked)
            } else if let place, !stale.contains(marked) {
                let alone = KindCell(slot: place.slot, v, rating: place.rating)
                if kept.count == 1 {
                    kept.extremes = alone.extremes
                    kept.bests = alone.bests
                } else {
                    kept.takeIn(alone, place.lookup)
                }
            } else {
                stale.insert(marked)
            }
            record[kind] = kept
            shards[shard][key] = record.gems.count == 0 && record.restaurants.count == 0 ? nil : record
        }
    }

    /// Works out again the extremes and best ratings of the cells marked by `add`, `remove` and `rerate`, finest first: a
    /// finest cell from `scan` (its places of the kind, as the index holds them now), a coarser one from its four finer
    /// cells.
    mutating func repair(_ lookup: SlotLookup, scan: (MapGrid.Cell, PlaceKind) -> KindCell) {
        guard !stale.isEmpty else { return }
        for item in stale.sorted(by: { $0.cell.zoom > $1.cell.zoom }) {
            let key = item.cell.key
            let shard = MapCells.shard(key)
            guard var record = shards[shard][key], record[item.kind].count > 0 else { continue }
            var fresh = KindCell()
            if item.cell.zoom == MapCells.finestZoom {
                fresh = scan(item.cell, item.kind)
            } else {
                for child in item.cell.children {
                    if let finer = shards[MapCells.shard(child.key)][child.key] { fresh.merge(finer[item.kind], lookup) }
                }
            }
            // The count and sums stay as kept (the scan's would only differ by rounding); the extremes and bests are new.
            record[item.kind].extremes = fresh.extremes
            record[item.kind].bests = fresh.bests
            shards[shard][key] = record
        }
        stale = []
    }

    /// Bytes held, by capacity (for the memory figures): the list of shards, each shard's arrays and the set of cells
    /// to repair.
    var memoryBytes: Int {
        shards.reduce(HeapCensus.array(shards) + HeapCensus.set(stale)) { $0 + $1.memoryBytes }
    }

    @inline(__always)
    static func shard(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 54)
    }
}
