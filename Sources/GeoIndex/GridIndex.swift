/// An exact in-memory spatial index of keyed points: radius and k-nearest queries by great-circle distance.
///
/// Points live in latitude bands sorted by longitude. The index is a copy-on-write value with no lock of its own:
/// a copy is a snapshot that any thread may query while its owner keeps changing another copy, and a change copies
/// only what a live snapshot still shares (the band tables and the bands it touches). Whoever shares an index
/// between threads publishes copies of it (as `PlaceIndex` does with the rest of its content).
public struct GridIndex: Sendable {
    /// Band height used by `init()`, in degrees (chosen with PlacesBench on the US dataset).
    public static let defaultBandDegrees = 0.015
    /// Chunk width relative to the band height used by `init()` (chunks are about this many band heights wide).
    public static let defaultChunkFactor = 0.75

    private var storage: GridStorage

    /// Makes an empty index with the default cell size.
    public init() {
        self.init(bandDegrees: GridIndex.defaultBandDegrees, chunkFactor: GridIndex.defaultChunkFactor)
    }

    /// Makes an empty index with a given band height (degrees) and chunk width (in band heights); for tuning.
    public init(bandDegrees: Double, chunkFactor: Double = GridIndex.defaultChunkFactor) {
        let factor = chunkFactor.isFinite && chunkFactor > 0 ? chunkFactor : GridIndex.defaultChunkFactor
        let height = bandDegrees.isFinite && bandDegrees > 0 ? bandDegrees : GridIndex.defaultBandDegrees
        storage = GridStorage(layout: BandLayout(bandDegrees: height, chunkMetersFactor: factor))
    }

    /// How many keys the index holds.
    public var count: Int { storage.count }

    /// Bytes allocated inside the index for positions and keys (by capacity, including array headers).
    public var memoryBytes: Int { storage.memoryBytes }

    /// Replaces all content with these entries (entries with an invalid coordinate are left out).
    public mutating func build(_ entries: [(key: UInt32, coordinate: Coordinate)]) {
        var fresh = GridStorage(layout: storage.layout)
        fresh.build(entries.filter { $0.coordinate.isValid })
        storage = fresh
    }

    /// Applies a batch of changes in order.
    public mutating func apply(_ changes: [GridChange]) {
        for change in changes { storage.apply(change) }
    }

    /// Adds a key at a position (callers keep keys unique).
    public mutating func insert(key: UInt32, at coordinate: Coordinate) {
        guard coordinate.isValid else { return }
        storage.insert(key: key, at: coordinate)
    }

    /// Removes a key, given its current position (the index keeps no key-to-position map); false if absent.
    @discardableResult
    public mutating func remove(key: UInt32, at coordinate: Coordinate) -> Bool {
        guard coordinate.isValid else { return false }
        return storage.remove(key: key, at: coordinate)
    }

    /// Moves a key from its current position to a new one; false (and no change) if it is not at `from`.
    @discardableResult
    public mutating func move(key: UInt32, from: Coordinate, to: Coordinate) -> Bool {
        guard from.isValid, to.isValid else { return false }
        return storage.move(key: key, from: from, to: to)
    }

    /// Calls `body` with every key whose coordinate lies in `box` (edges included, across the antimeridian when its
    /// west edge is east of its east edge), in no particular order; nothing for an invalid box.
    ///
    /// The index keeps positions to the precision its scans need, so the keys near an edge are decided by their exact
    /// coordinate, which `coordinate` gives for a key.
    public func forEachKey(in box: GeoBox, coordinate: (UInt32) -> Coordinate, _ body: (UInt32) -> Void) {
        storage.forEachEntry(in: box, coordinate: coordinate) { body($0.key) }
    }

    /// `forEachKey(in:coordinate:_:)`, giving each key's unit vector too (x towards 0°E on the equator, z towards
    /// the north pole; `MapGrid.cell(x:y:z:zoom:)` reads it), so a scan reads nothing outside the index.
    public func forEachPoint(in box: GeoBox, coordinate: (UInt32) -> Coordinate, _ body: (UInt32, Double, Double, Double) -> Void) {
        storage.forEachEntry(in: box, coordinate: coordinate) { body($0.key, $0.x, $0.y, $0.z) }
    }

    /// Calls `body` with every key whose point may lie in `box` (which must not cross the antimeridian), with its unit
    /// vector: a superset, widened past the rounding of the positions the index keeps and tested no further, for a
    /// caller that decides membership itself (as a map's cell does, from the unit vector).
    public func forEachCandidate(in box: GeoBox, _ body: (UInt32, Double, Double, Double) -> Void) {
        storage.forEachCandidate(in: box) { body($0.key, $0.x, $0.y, $0.z) }
    }

    /// Every key within radiusMeters of center (distance <= radius), sorted by (distance, tie-break); with limit: the k nearest of those.
    ///
    /// `tieBreak(a, b)` is true when key a comes before key b at equal distance (default: ascending key); with a
    /// limit the k kept are the first k in that order. An invalid centre or a negative radius matches nothing.
    public func within(
        _ center: Coordinate,
        radiusMeters: Double,
        limit: Int? = nil,
        where filter: ((UInt32) -> Bool)? = nil,
        tieBreak: ((UInt32, UInt32) -> Bool)? = nil
    ) -> [GridHit] {
        guard let circle = QueryCircle(center: center, radiusMeters: radiusMeters) else { return [] }
        let order = HitOrder(tieBreak: tieBreak)
        if let limit {
            guard limit > 0 else { return [] }
            // Huge limits are better served by the full scan and its bucket sort than by a huge heap.
            if limit <= 4096 {
                return storage.nearest(in: circle, k: limit, filter: filter, order: order)
            }
            let hits = storage.all(in: circle, filter: filter, order: order)
            return hits.count > limit ? Array(hits.prefix(limit)) : hits
        }
        return storage.all(in: circle, filter: filter, order: order)
    }
}
