import Dispatch
import GeoIndex

/// Builds a table from a whole read of the places while the read goes on.
///
/// The database's reader hands the summaries over a batch at a time (`receive`), and two serial queues take each
/// batch in turn, on the cores the reader leaves: one makes the places' entries (their JSON, kinds and ranks), the
/// other gathers their search postings. What needs every place, or their number, is built once the read is over
/// (`table`): the grid's bands and the map's cells on the caller's core; the slots by id (sized for the places), the
/// postings' order and zoom 13's best ratings on another.
/// A batch is freed once both queues are done with it, so the read's summaries are never all held at once.
///
/// At 1M places (release), reading took 2 s on SQLite and 5 s on PostgreSQL, making the entries 2.3 s, the postings
/// 3.0 s and the map's cells 1.5 s; one after the other, the read and the rest took 6 s and 9 s.
final class PlaceTableLoad: PlaceSummaryReceiver, @unchecked Sendable {
    // `@unchecked Sendable`: `table` and `placed` are touched only on `entriesQueue` until `table(at:)` has waited for
    // it to drain, and `postings` and `words` only on `postingsQueue`.

    private let entriesQueue = DispatchQueue(label: "places.index-load.entries")
    private let postingsQueue = DispatchQueue(label: "places.index-load.postings")
    private var table = PlaceTable()
    /// Each place's slot, coordinate, kind and rating, for the grid and the cells built at the end.
    private var placed: [(slot: UInt32, coordinate: Coordinate, kind: PlaceKind, rating: RatingAggregate)] = []
    private var postings = SearchPostings.Builder()
    /// The postings in order, once made.
    private var words = SearchPostings()

    /// Makes a load expecting about `capacity` places (room is made for them at once; more are fine).
    init(capacity: Int = 0) {
        table.places.reserveCapacity(capacity)
        table.kinds.reserveCapacity(capacity)
        table.ranks.reserveCapacity(capacity)
        placed.reserveCapacity(capacity)
    }

    /// Takes the next places of the read, in its order (called by one reader at a time).
    func receive(_ batch: [PlaceSummary]) {
        guard !batch.isEmpty else { return }
        entriesQueue.async { self.makeEntries(batch) }
        postingsQueue.async { self.postings.add(batch) }
    }

    private func makeEntries(_ batch: [PlaceSummary]) {
        for summary in batch {
            let slot = UInt32(table.places.count)
            table.places.append(IndexedPlace.make(summary))
            table.kinds.append(summary.kind)
            table.ranks.append(PlaceRank(summary))
            placed.append((slot, summary.coordinate, summary.kind, summary.rating))
        }
    }

    /// The table of every place received, current at the snapshot's feed position (call it once, after the read).
    func table(at snapshot: PlaceSnapshot) -> PlaceTable {
        // The postings are put in order on their own queue.
        postingsQueue.async { self.words = self.postings.postings() }
        entriesQueue.sync {}
        let placed = placed
        self.placed = []
        var table = table
        self.table = PlaceTable()
        // The slots and the best ratings on another core, while this one builds the grid and the map's cells (both
        // sides only read the entries).
        let entries = table.places
        let elsewhere = BuiltElsewhere {
            var slots = PlaceSlots(capacity: placed.count)
            for place in placed {
                if let id = entries[Int(place.slot)]?.id { slots.insert(place.slot, for: id, in: entries) }
            }
            return (slots, RatingCells(placed.map { ($0.coordinate, $0.kind, $0.rating) }))
        }
        table.revision = snapshot.revision
        table.generation = snapshot.generation
        table.live = placed.count
        table.grid.build(placed.map { ($0.slot, $0.coordinate) })
        table.cells = MapCells(placed.map { ($0.slot, $0.coordinate, $0.kind, $0.rating) }, table.lookup)
        (table.slots, table.ratingCells) = elsewhere.value
        table.words = postingsQueue.sync {
            defer { self.words = SearchPostings() }
            return self.words
        }
        return table
    }
}

/// A value built on a thread of its own while the caller goes on; `value` waits for it.
///
/// For work that blocks a core for seconds (building an index's parts at start-up): it runs on a Dispatch queue, not
/// on Swift's cooperative pool, so waiting for it never waits for a task of that pool.
final class BuiltElsewhere<Value: Sendable>: @unchecked Sendable {
    // Written once, by the building thread, before `done` is signalled; read only after waiting for it.
    private var built: Value?
    private let done = DispatchSemaphore(value: 0)

    init(_ build: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async {
            self.built = build()
            self.done.signal()
        }
    }

    /// The value, once it is built.
    var value: Value {
        done.wait()
        done.signal()
        return built!
    }
}
