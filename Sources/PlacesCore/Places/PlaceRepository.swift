import Foundation
import GeoIndex
import Synchronization

/// Stores places; the SQLite target implements it, and a later PostgreSQL target will too.
public protocol PlaceRepository: Sendable {
    /// The place with this id, deleted or not; nil when there is none.
    func place(id: String) async throws -> Place?

    /// Every live (not deleted) place's summary, handed to `receiver` a batch at a time as the read goes on, in one
    /// snapshot; answers the feed position they are current at (with no summaries: the receiver has them).
    func liveSummaries(into receiver: any PlaceSummaryReceiver) async throws -> PlaceSnapshot

    /// The places the change feed names after `revision` and up to the feed's horizon, as they are now (live ones
    /// whole, deleted ones by id), in the order of their last change, and the horizon they are current at; with them,
    /// read in the same snapshot, the places `rereading` names (writes of this instance the horizon may not have passed
    /// yet), asked for once the read is about to be sent, so that writes that committed meanwhile can still join it.
    /// Nil when more than `limit` places changed, when the feed was pruned past `revision`, or when `revision` is
    /// ahead of anything the database ever committed (it was replaced): the caller then loads a whole snapshot.
    func changes(since revision: Int64, limit: Int, rereading: @escaping @Sendable () -> Set<String>) async throws -> PlaceChanges?
    /// The places the feed names after `revision` other than `applied` (an index at that revision holds those as a
    /// read above it found them): how many, and how long ago by the database's clock the oldest of their changes was
    /// written. The changes an index at that revision has not applied yet.
    func unapplied(since revision: Int64, leavingOut applied: Set<String>) async throws -> UnappliedChanges

    /// Opens the one transaction a seed file is written in: batches of places go in one after another, and nothing
    /// of them is visible (or left behind) unless it commits.
    func beginSeed() async throws -> any SeedTransaction

    /// Stores a place added through the API or the CLI; `conflict` when the id is taken. With `limit`, only while its
    /// owner added fewer places than the limit allows since its moment, checked in the same statement: false when they
    /// reached it (nothing is stored).
    func insert(_ place: Place, limit: AdditionLimit?) async throws -> Bool
    /// When the person made the addition that keeps them from one more: the `allowed`-th newest of the places they
    /// added at or after `since` (read from an index on owner and time, so the answer costs at most `allowed` entries
    /// however many they added); nil when they added fewer.
    func additionBlocking(ownerID: String, since: Date, allowed: Int) async throws -> Date?

    /// Saves a changed place whole (content, owner, deletion); `not_found` when it is not stored.
    func update(_ place: Place) async throws

    /// Marks or unmarks a favourite (idempotent: marking one again keeps when it was first marked).
    func setFavorite(userID: String, placeID: String, favorite: Bool, now: Date) async throws

    /// The user's favourites: place ids and when each was marked, newest first.
    func favorites(userID: String) async throws -> [(placeID: String, createdAt: Date)]

    /// Stores the user's rating of a place (replacing theirs) and returns the place's new aggregate; `not_found` when
    /// no live place has that id (a deleted place takes no new rating).
    func save(_ rating: Rating) async throws -> RatingAggregate

    /// Removes the user's rating of a place; returns the new aggregate, or nil when there was none.
    func deleteRating(userID: String, placeID: String) async throws -> RatingAggregate?

    /// How many live places are stored.
    func liveCount() async throws -> Int

    /// True when no place was ever stored (a new database that first start should seed).
    func isEmpty() async throws -> Bool
}

/// The transaction a seed file is written in, batch by batch. Exactly one of `commit` and `rollback` ends it; until
/// then the engine keeps it open (and other writes wait). Batches are written in the order `upsert` is called, and a
/// caller may call it again before the batch before has answered (from a task that starts at once), so the engine
/// never waits for the caller between batches.
public protocol SeedTransaction: Sendable {
    /// Inserts each place or brings the stored one back to it, in order, and answers those it refused by their
    /// position in `places`: `conflict` when the id belongs to a place that seeds do not own (one added through the
    /// API), `invalid_input` when this transaction already wrote the id (a file naming it twice). The others are
    /// written. A failure of the database itself throws, and the transaction can then only roll back.
    func upsert(_ places: [Place]) async throws -> [Int: PlacesError]
    /// How many of the places written so far took an id that no place held before (the others updated a place).
    func addedCount() async throws -> Int
    /// The ids, in order, of the places a seed wrote before (not deleted, not added through the API) whose ids start
    /// with `idPrefix`, that lie inside `box` and whose seed file's name `sources` accepts, that this transaction did
    /// not write: gone from the source. With `remove`, deletes them in this transaction as a deletion through the API
    /// does (at `now`; they come back if a later seed holds them again).
    func unwritten(
        idPrefix: String,
        within box: GeoBox,
        sources: @escaping @Sendable (String) -> Bool,
        remove: Bool,
        now: Date
    ) async throws -> [String]
    /// Makes everything written visible at once, in one transaction of the change feed.
    func commit() async throws
    /// Ends the transaction leaving nothing of it behind, in the feed neither.
    func rollback() async
}

/// Ids that start with a prefix, as a range of ids: every one sorts at or after the prefix and before `upperBound`, in
/// byte order (SQLite's and PostgreSQL's `"C"` collation), so a store reads them from its primary key.
public enum IDPrefixRange {
    /// The first string after every string that starts with `prefix`: the prefix with its last character's next.
    public static func upperBound(of prefix: String) -> String {
        guard let last = prefix.unicodeScalars.last, let next = Unicode.Scalar(last.value + 1) else { return prefix + "\u{10FFFF}" }
        return String(prefix.unicodeScalars.dropLast()) + String(next)
    }
}

/// How many places a person may add since a moment.
@PublicInit
public struct AdditionLimit: Sendable {
    /// How many additions are allowed.
    public var allowed: Int
    /// Additions at or after this moment count.
    public var since: Date
}

extension PlaceRepository {
    /// Every live (not deleted) place's summary, and the feed position they are current at.
    public func liveSummaries() async throws -> PlaceSnapshot {
        let collected = CollectedSummaries()
        var snapshot = try await liveSummaries(into: collected)
        snapshot.summaries = collected.take()
        return snapshot
    }
}

extension PlaceRepository {
    /// Stores a place with no limit on additions; `conflict` when the id is taken.
    public func insert(_ place: Place) async throws {
        _ = try await insert(place, limit: nil)
    }

    /// Writes `places` as one seed transaction, refusing them all when one is refused (tests and small tools; files
    /// go through `SeedImporter`, which reports each refused row).
    public func seed(_ places: [Place]) async throws {
        let transaction = try await beginSeed()
        do {
            if let refused = try await transaction.upsert(places).min(by: { $0.key < $1.key }) { throw refused.value }
            try await transaction.commit()
        } catch {
            await transaction.rollback()
            throw error
        }
    }
}

/// Takes the places of a whole read as the read goes on (`PlaceRepository.liveSummaries(into:)`), a batch at a
/// time, in the read's order, from one caller at a time.
public protocol PlaceSummaryReceiver: Sendable {
    /// Takes the next batch (the last one may be short, or empty).
    func receive(_ batch: [PlaceSummary])
}

/// Summaries of a read, kept as they came.
final class CollectedSummaries: PlaceSummaryReceiver {
    private let summaries = Mutex<[PlaceSummary]>([])

    func receive(_ batch: [PlaceSummary]) {
        summaries.withLock { $0.append(contentsOf: batch) }
    }

    /// What was received, handed over.
    func take() -> [PlaceSummary] {
        summaries.withLock { summaries in
            defer { summaries = [] }
            return summaries
        }
    }
}

/// Every live place's summary at one position of the change feed.
@PublicInit
public struct PlaceSnapshot: Sendable {
    /// The summaries.
    public var summaries: [PlaceSummary]
    /// The feed position they are current at: every change at or below it is in them.
    public var revision: Int64
    /// The database's generation: a new one when the database was replaced under running instances (`places copy
    /// --replace`, a restore), whose revisions then count anew; "" when the engine does not tell.
    public var generation: String = ""
    /// The newest position the read could see committed (see `PlaceChanges.reach`).
    public var reach: Int64 = 0

    /// How many summaries a read hands its receiver at a time.
    public static let batchSize = 4_096
}

/// Places that changed after some revision: the live ones as they are now, and the ids of those deleted.
@PublicInit
public struct PlaceChanges: Sendable {
    /// Places changed and live, in revision order.
    public var upserted: [PlaceSummary]
    /// Ids of places deleted since.
    public var deleted: [String]
    /// The feed position this is current at: every change at or below it is in it (the horizon, less one).
    public var revision: Int64
    /// The database's generation (see `PlaceSnapshot.generation`): another than the index's means reload everything.
    public var generation: String = ""
    /// The newest position the read could see committed: a write committed before the read is at or below it, though
    /// the horizon (`revision`) may not have passed it yet. What a write's answer says as its `Places-Revision`.
    public var reach: Int64 = 0
    /// True when changes were committed above the horizon (behind a transaction still open; an engine may count
    /// changes of every kind): a reader should look again soon rather than at its next poll.
    public var pending: Bool = false
    /// Places re-read here whose changes lie at or above the horizon still: the index holds them as this read found
    /// them, ahead of its revision, and re-reads them at each sync until the horizon passes them.
    public var rereadAbove: Set<String> = []
}

/// The changes the feed holds that an index has not applied (`PlaceRepository.unapplied(since:leavingOut:)`).
@PublicInit
public struct UnappliedChanges: Sendable, Equatable {
    /// Places changed.
    public var changes: Int
    /// Seconds since the oldest of those changes was written; 0 when there are none.
    public var oldestSeconds: Double
}

extension PlaceRepository {
    /// `changes(since:limit:rereading:)` with nothing to re-read.
    public func changes(since revision: Int64, limit: Int) async throws -> PlaceChanges? {
        try await changes(since: revision, limit: limit, rereading: Set<String>())
    }

    /// `changes(since:limit:rereading:)` re-reading places known already.
    public func changes(since revision: Int64, limit: Int, rereading: Set<String>) async throws -> PlaceChanges? {
        try await changes(since: revision, limit: limit, rereading: { rereading })
    }
}
