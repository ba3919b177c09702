import Synchronization

/// An exact in-memory spatial index of keyed points: radius and k-nearest queries by great-circle distance.
///
/// Points live in latitude bands sorted by longitude. The content is a copy-on-write `GridStorage` behind a
/// `Mutex`: a reader holds the lock only to take a snapshot (a retain), then queries without it, so many readers
/// never wait on each other and a writer never waits on a long query. A write copies only what a live snapshot
/// still shares.
public final class GridIndex: Sendable {
    /// Band height used by `init()`, in degrees (chosen with PlacesBench on the US dataset).
    public static let defaultBandDegrees = 0.015
    /// Chunk width relative to the band height used by `init()` (chunks are about this many band heights wide).
    public static let defaultChunkFactor = 0.75

    private let storage: Mutex<GridStorage>

    /// Makes an empty index with the default cell size.
    public convenience init() {
        self.init(bandDegrees: GridIndex.defaultBandDegrees, chunkFactor: GridIndex.defaultChunkFactor)
    }

    /// Makes an empty index with a given band height (degrees) and chunk width (in band heights); for tuning.
    public init(bandDegrees: Double, chunkFactor: Double = GridIndex.defaultChunkFactor) {
        let factor = chunkFactor.isFinite && chunkFactor > 0 ? chunkFactor : GridIndex.defaultChunkFactor
        let height = bandDegrees.isFinite && bandDegrees > 0 ? bandDegrees : GridIndex.defaultBandDegrees
        storage = Mutex(GridStorage(layout: BandLayout(bandDegrees: height, chunkMetersFactor: factor)))
    }

    /// How many keys the index holds.
    public var count: Int { storage.withLock { $0.count } }

    /// Bytes allocated inside the index for positions and keys (by capacity, including array headers).
    public var memoryBytes: Int { storage.withLock { $0.memoryBytes } }

    /// Replaces all content with these entries.
    public func build(_ entries: [(key: UInt32, coordinate: Coordinate)]) {
        let layout = storage.withLock { $0.layout }
        // Built outside the lock so readers keep answering from the old content meanwhile; swapped in at once.
        var fresh = GridStorage(layout: layout)
        fresh.build(entries.filter { $0.coordinate.isValid })
        storage.withLock { $0 = fresh }
    }

    /// Applies a batch of changes under one write critical section, in order.
    public func apply(_ changes: [GridChange]) {
        storage.withLock { state in
            for change in changes { state.apply(change) }
        }
    }

    /// Adds a key at a position (callers keep keys unique).
    public func insert(key: UInt32, at coordinate: Coordinate) {
        guard coordinate.isValid else { return }
        storage.withLock { $0.insert(key: key, at: coordinate) }
    }

    /// Removes a key, given its current position (the index keeps no key-to-position map); false if absent.
    @discardableResult
    public func remove(key: UInt32, at coordinate: Coordinate) -> Bool {
        guard coordinate.isValid else { return false }
        return storage.withLock { $0.remove(key: key, at: coordinate) }
    }

    /// Moves a key from its current position to a new one; false (and no change) if it is not at `from`.
    @discardableResult
    public func move(key: UInt32, from: Coordinate, to: Coordinate) -> Bool {
        guard from.isValid, to.isValid else { return false }
        return storage.withLock { $0.move(key: key, from: from, to: to) }
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
        let snapshot = storage.withLock { $0 }
        let order = HitOrder(tieBreak: tieBreak)
        if let limit {
            guard limit > 0 else { return [] }
            // Huge limits are better served by the full scan and its bucket sort than by a huge heap.
            if limit <= 4096 {
                return snapshot.nearest(in: circle, k: limit, filter: filter, order: order)
            }
            let hits = snapshot.all(in: circle, filter: filter, order: order)
            return hits.count > limit ? Array(hits.prefix(limit)) : hits
        }
        return snapshot.all(in: circle, filter: filter, order: order)
    }
}
