import Foundation
import Synchronization

/// The places use cases: nearby queries from the index, place details from the repository, and keeping the
/// index in step with the database.
public struct PlaceService: Sendable {
    /// A change set larger than this is loaded as a whole snapshot rather than applied place by place.
    static let largeChangeSet = 50_000

    let repository: any PlaceRepository
    let index: PlaceIndex
    /// True once the index holds the places (a server loads them at start; a command only when it needs them).
    private let indexLoaded = SharedFlag()
    /// When the index was last seen caught up with the database.
    /// Places the index re-read ahead of its revision whose changes the feed's horizon has not passed yet.
    private let rereadAbove = RereadAbove()
    /// The syncs in flight, which concurrent callers share.
    let syncs = SyncFlights()
    /// Whether the last sync saw changes above the feed's horizon.
    private let lastSyncPending = SharedFlag()
    let clock: @Sendable () -> Date
    let makePlaceID: @Sendable () -> String
    let limits: UsageLimits

    /// Makes the service over a repository and the index it keeps in step; the clock stamps changes and
    /// `makePlaceID` names places added through the API (default: `p-` and 16 random hex digits).
    public init(
        repository: any PlaceRepository,
        index: PlaceIndex,
        clock: @escaping @Sendable () -> Date = { Date() },
        makePlaceID: @escaping @Sendable () -> String = PlaceService.randomPlaceID,
        limits: UsageLimits = UsageLimits()
    ) {
        self.limits = limits
        self.repository = repository
        self.index = index
        self.clock = clock
        self.makePlaceID = makePlaceID
    }

    /// `p-` and 16 random hex digits.
    @Sendable public static func randomPlaceID() -> String {
        RandomID.make("p-")
    }

    /// The places near a point, in the query's order (by distance, or by score then distance; ties by id).
    public func nearby(_ query: NearbyQuery) -> NearbyAnswer {
        NearbyAnswer(query: query, places: index.nearby(query))
    }

    /// Where a group can meet: the places within 20 miles of every origin, the least distance from the farthest origin
    /// first, then the least sum of distances, then by id.
    public func meet(_ query: MeetQuery) -> MeetAnswer {
        MeetAnswer(query: query, places: index.meet(query))
    }

    /// The places inside a map's viewport, best score first (then by id), one page at a time.
    public func within(_ query: ViewportQuery) -> ViewportAnswer {
        index.within(query)
    }

    /// The clusters and single places of a map's viewport at a zoom; their counts add up to the places in the box.
    public func clusters(_ query: ClusterQuery) -> ClusterAnswer {
        index.clusters(query)
    }

    /// The live place with this id, or `not_found`.
    public func place(id: String) async throws -> Place {
        try PlaceDraft.checkID(id)
        guard let place = try await repository.place(id: id), place.deletedAt == nil else {
            throw PlacesError.notFound("no place with id '\(id)'")
        }
        return place
    }

    /// Loads every live place into the index (start-up); answers the feed position a write committed before it is at
    /// or below.
    @discardableResult
    public func loadIndex() async throws -> Int64 {
        // The table is built while the rows are read; each batch of summaries is freed once its parts are made, before
        // the index returns the load's memory to the system.
        let load = PlaceTableLoad()
        let snapshot = try await repository.liveSummaries(into: load)
        let reach = max(snapshot.reach, snapshot.revision)
        index.replaceAll(with: load.table(at: snapshot))
        indexLoaded.flag.store(true, ordering: .releasing)
        rereadAbove.set([])
        return reach
    }

    /// The index, loaded the first time it is needed: a server loads it at start, a command of the CLI only when it
    /// answers a spatial question or shows places (so acting as someone on a large database stays quick).
    func loadedIndex() async throws -> PlaceIndex {
        if !indexLoaded.flag.load(ordering: .acquiring) { try await loadIndex() }
        return index
    }

    /// The places near a point, in the query's order, loading the index first if nothing has loaded it yet.
    public func nearbyLoadingIndex(_ query: NearbyQuery) async throws -> NearbyAnswer {
        NearbyAnswer(query: query, places: try await loadedIndex().nearby(query))
    }

    /// `meet(_:)`, loading the index first when nothing has (a command's first query).
    public func meetLoadingIndex(_ query: MeetQuery) async throws -> MeetAnswer {
        MeetAnswer(query: query, places: try await loadedIndex().meet(query))
    }

    /// What nearby answers show of these live places, by id (deleted ones are left out).
    public func summaries(_ ids: [String]) async throws -> [String: PlaceSummary] {
        try await loadedIndex().summaries(ids)
    }

    /// Applies what other writers committed since the index's revision; returns how many places changed. An index
    /// nothing has loaded yet stays unloaded: it reads everything when first needed.
    ///
    /// Single-flight: callers at the same moment share one sync that starts after they called (see `SyncFlights`),
    /// so a burst of writes, catch-ups and readiness checks reads the changes (or, after a new generation, the whole
    /// table) once.
    @discardableResult
    public func syncIndex() async throws -> Int {
        try await sync(rereading: []).changed
    }

    /// A sync that starts after this call and re-reads `rereading` besides what the feed names.
    func sync(rereading: Set<String>) async throws -> IndexSync {
        guard indexLoaded.flag.load(ordering: .acquiring) else { return IndexSync(changed: 0, reach: 0, pending: false) }
        let sync = try await syncs.fresh(rereading: rereading) { [self] rereads in try await applyChanges(rereading: rereads) }
        lastSyncPending.flag.store(sync.pending, ordering: .relaxed)
        return sync
    }

    /// Brings a place this instance just wrote into the index before the write answers, whatever the feed's horizon
    /// (a transaction still open elsewhere may hold it below the write), and tells the request where the write is in
    /// the feed (its answer's `Places-Revision`).
    func syncWrite(of placeID: String) async throws {
        let sync = try await sync(rereading: [placeID])
        RequestWrites.current?.wrote(at: sync.reach)
    }

    /// True when the last sync saw place changes committed above the feed's horizon (behind a transaction still
    /// open): the periodic sync then looks again soon rather than at its next poll.
    public var feedPending: Bool { lastSyncPending.flag.load(ordering: .relaxed) }

    /// One sync: reads what changed since the index's revision (and the places to re-read) and applies it, or reloads
    /// everything.
    private func applyChanges(rereading: @escaping @Sendable () -> Set<String>) async throws -> IndexSync {
        // The places re-read ahead of the revision are read again, until the horizon passes their changes: the index
        // then holds every change of theirs that committed before the read.
        let held = rereadAbove.places
        let named = { @Sendable in rereading().union(held) }
        guard let changes = try await repository.changes(since: index.revision, limit: PlaceService.largeChangeSet, rereading: named) else {
            let before = index.revision
            let reach = try await loadIndex()
            return IndexSync(changed: index.revision > before ? index.count : 0, reach: reach, pending: false)
        }
        // A database replaced under the instance counts its revisions anew: only a whole snapshot is right then.
        if index.wantsCompaction || changes.generation != index.generation {
            let reach = try await loadIndex()
            return IndexSync(changed: index.count, reach: reach, pending: false)
        }
        index.apply(changes)
        rereadAbove.set(changes.rereadAbove)
        return IndexSync(changed: changes.upserted.count + changes.deleted.count, reach: changes.reach, pending: changes.pending)
    }

    /// How many live places the index holds.
    public var indexedCount: Int { index.count }

    /// The feed position the index has applied up to: every place write answered before it is in the
    /// index (a write through this instance is, once it answers).
    public var indexRevision: Int64 { index.revision }

    /// Brings the index to at least `revision` (another instance's write the caller has seen), reading the changes
    /// itself rather than waiting for the feed, and trying again until `patience` has passed; true when it got there.
    public func catchUp(to revision: Int64, patience: Duration = .milliseconds(200)) async -> Bool {
        let deadline = ContinuousClock.now + patience
        while index.revision < revision {
            guard ContinuousClock.now < deadline else { return false }
            // A sync already under way (another catch-up's, a write's) may bring it there: wait for that one first.
            await syncs.running(until: deadline)
            if index.revision >= revision { break }
            do {
                // No longer than the patience left, whatever the request's own deadline.
                _ = try await DatabaseDeadline.within(deadline - ContinuousClock.now) { try await syncIndex() }
            } catch {
                return index.revision >= revision
            }
            if index.revision < revision { try? await Task.sleep(for: .milliseconds(10)) }
        }
        return true
    }

    /// Checks that the instance can answer: the index is loaded and has applied every change committed so far (the
    /// database answered the question). `unavailable` otherwise; the index's revision when ready.
    public func readiness() async throws -> Int64 {
        guard indexLoaded.flag.load(ordering: .acquiring) else {
            throw PlacesError(.unavailable, "the place index is still loading", cause: .indexLoading)
        }
        try await syncIndex()
        return index.revision
    }
}

/// How far behind the database an index is.
@PublicInit
public struct IndexLag: Sendable, Equatable {
    /// Places changed in the database that the index has not applied.
    public var changes: Int
    /// Seconds since the oldest change the index has not applied was written; zero when there is none. A transaction
    /// left open holds the feed's horizon (`ChangeFeed.horizonAge()`) but not this, while the index has every change committed.
    public var seconds: Double
}

extension PlaceService {
    /// How far behind the database the index is now (one count in the database); for the operator's metrics.
    public func indexLag() async throws -> IndexLag {
        let unapplied = try await repository.unapplied(since: index.revision, leavingOut: rereadAbove.places)
        return IndexLag(changes: unapplied.changes, seconds: unapplied.oldestSeconds)
    }
}

/// The places an index re-read ahead of its revision (`PlaceChanges.rereadAbove`); shared by a place service's copies.
private final class RereadAbove: Sendable {
    private let held = Mutex(Set<String>())

    var places: Set<String> { held.withLock { $0 } }

    func set(_ places: Set<String>) { held.withLock { $0 = places } }
}

/// A flag shared by the copies of a place service (whether its index was loaded, whether its last sync saw changes
/// waiting above the feed's horizon).
private final class SharedFlag: Sendable {
    let flag = Atomic<Bool>(false)
}
