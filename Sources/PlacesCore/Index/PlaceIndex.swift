import GeoIndex
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The in-memory side of the places: the grid index plus what a nearby answer shows of each place.
///
/// The database is the source of truth; this follows it through the change feed (`revision`, the position it has
/// applied up to), applying each changed place as a later read found it. Each place gets a slot (the grid's key) that is never reused until the next full
/// load, so a slot a reader holds always names the same place.
///
/// One mechanism keeps readers and writers apart: the content is an immutable version (`PlaceTable`) that a
/// reader takes under a lock held for one retain, then queries with no lock held, however long its query runs. The
/// one writer at a time (writers queue on their own lock) changes a copy, which copies only the chunks it touches,
/// and publishes it as the next version; a query already running keeps the version it took.
public final class PlaceIndex: Sendable {
    private let current = Mutex(PlaceTableVersion(PlaceTable()))
    /// Held by the one writer at a time, from taking the current version to publishing the next; never by a reader.
    private let writing = Mutex(())

    /// Makes an empty index at revision 0.
    public init() {}

    /// The version queries read now: taking it is one retain under the lock.
    private var version: PlaceTableVersion { current.withLock { $0 } }

    /// The content queries read now.
    private var table: PlaceTable { version.table }

    /// The feed position the index has applied up to.
    public var revision: Int64 { table.revision }

    /// The database generation its revision counts in.
    public var generation: String { table.generation }

    /// How many live places the index holds.
    public var count: Int { table.live }

    /// True when deleted places hold so many slots that a fresh full load would be leaner.
    public var wantsCompaction: Bool {
        let table = table
        return table.places.count > 2 * table.live + 10_000
    }

    /// Replaces everything with a snapshot (start-up, or after a change set too large to apply one by one). It takes
    /// the snapshot over: its summaries are freed once the table is built, before the freed memory is handed back (a
    /// caller that kept them alive past it kept their pages too, about 80 bytes a place).
    public func replaceAll(_ snapshot: consuming PlaceSnapshot) {
        // Built before any lock is taken: queries keep being answered from the old version meanwhile. The table's
        // initializer takes the snapshot over and frees it.
        replaceAll(with: PlaceTable(snapshot))
    }

    /// Replaces everything with a table built apart (a load's, or a snapshot's), its scratch freed already.
    func replaceAll(with table: consuming PlaceTable) {
        writing.withLock { _ in publish(table) }
        Self.returnFreedMemory()
    }

    /// Hands the memory that building a table freed back to the system. A full load frees hundreds of megabytes of
    /// scratch (and the version it replaced), much of it in the arena of the thread that built the search's postings;
    /// glibc keeps freed memory of an arena for later use, so without this a server stays that much larger.
    private static func returnFreedMemory() {
        #if canImport(Glibc)
        // `malloc_trim` is glibc's (malloc.h, which the Glibc module leaves out): found by name, called as C.
        typealias Trim = @convention(c) (Int) -> Int32
        if let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {  // RTLD_DEFAULT
            _ = unsafeBitCast(trim, to: Trim.self)(0)
        }
        #endif
    }

    /// Applies a change set in order: the places as a read after every one before it saw them, so never an older state
    /// over a newer one. A set at a revision behind the index's (read before it) is ignored; one at the same revision
    /// may still carry places re-read above it (a write of this instance the horizon has not passed).
    public func apply(_ changes: PlaceChanges) {
        writing.withLock { _ in
            var next = table
            guard changes.revision >= next.revision, changes.revision > next.revision || !changes.upserted.isEmpty || !changes.deleted.isEmpty
            else { return }
            next.apply(changes)
            publish(next)
        }
    }

    /// The places within the query's circle that pass its filter, in its order (ties by id), at most `limit` of them.
    public func nearby(_ query: NearbyQuery) -> [NearbyPlace] {
        version.table.nearby(query, whileScanning: nil)
    }

    /// `nearby(_:)` from the grid alone (`fromCells: false`: its nearest-first walk, or for `sort=score` a scan of the
    /// whole circle), the benchmark's baseline for the walk of the map's cells; both give the same answer.
    public func nearby(_ query: NearbyQuery, fromCells: Bool) -> [NearbyPlace] {
        fromCells ? version.table.nearbyFromCells(query, whileScanning: nil) : version.table.nearbyFromGrid(query, whileScanning: nil)
    }

    /// `nearby(_:)`, calling `whileScanning` once from inside the grid's scan (tests hold a query open with it).
    func nearby(_ query: NearbyQuery, whileScanning: (() -> Void)?) -> [NearbyPlace] {
        version.table.nearby(query, whileScanning: whileScanning)
    }

    /// The places within 20 miles of every origin of the query that pass its filter, the fairest first.
    public func meet(_ query: MeetQuery) -> [MeetPlace] {
        version.table.meet(query)
    }

    /// One page of the places inside the query's box that pass its filter, best score first, then by id.
    public func within(_ query: ViewportQuery) -> ViewportAnswer {
        version.table.within(query)
    }

    /// The clusters and single places of the query's box at its zoom; `fromCounts: false` scans the box even where
    /// the counts kept per cell would answer (the benchmark's baseline: both give the same answer).
    public func clusters(_ query: ClusterQuery, fromCounts: Bool = true) -> ClusterAnswer {
        fromCounts ? version.table.clusters(query) : version.table.scannedClusters(query)
    }

    /// One page of the places a search matches: by relevance, then distance (inside a circle), then id.
    public func search(_ query: PlaceSearchQuery) throws(PlacesError) -> Page<PlaceSearchHit> {
        try version.table.search(query)
    }

    /// The same page, inside a circle always by weighing every match there (never nearest first): the benchmark's
    /// baseline for the walk.
    public func searchWeighingEveryMatch(_ query: PlaceSearchQuery) throws(PlacesError) -> Page<PlaceSearchHit> {
        try version.table.search(query, nearestFirst: false)
    }

    /// The bytes each of the index's structures holds, counted by the structures (for `places-bench --memory`).
    public var memoryReport: IndexMemory { version.table.memoryReport }

    /// How many distinct words and postings the search keeps, and the bytes they take (for the memory figures).
    public var searchSize: (words: Int, postings: Int, bytes: Int) { version.table.words.size }

    /// Bytes the per-cell counts of the map's grid hold (for the memory figures).
    public var mapCellBytes: Int { version.table.cells.memoryBytes }

    /// Bytes the best ratings of the cells of zoom 13 hold (for the memory figures).
    public var ratingCellBytes: Int { version.table.ratingCells.memoryBytes }

    /// The summaries of these ids that are live, by id.
    public func summaries(_ ids: [String]) -> [String: PlaceSummary] {
        let version = version
        let table = version.table
        var found: [String: PlaceSummary] = [:]
        for id in ids {
            if let slot = table.slots.slot(of: id, in: table.places), let place = table.places[Int(slot)] { found[id] = place.summary }
        }
        return found
    }

    /// Makes `next` the version queries read; the previous one is freed by its last reader, outside the lock.
    private func publish(_ next: PlaceTable) {
        let version = PlaceTableVersion(next)
        let previous = current.withLock { current in
            defer { current = version }
            return current
        }
        _ = consume previous
    }
}

/// One published version of the index's content; a class, so taking it is one retain.
private final class PlaceTableVersion: Sendable {
    let table: PlaceTable

    init(_ table: PlaceTable) {
        self.table = table
    }
}
