import Foundation

/// Stores places; the SQLite target implements it, and a later PostgreSQL target will too.
public protocol PlaceRepository: Sendable {
    /// The place with this id, deleted or not; nil when there is none.
    func place(id: String) async throws -> Place?

    /// Every live (not deleted) place's summary, and the change counter they are current at.
    func liveSummaries() async throws -> PlaceSnapshot

    /// What changed after `revision`, in commit order, and the counter it is current at; nil when more than `limit`
    /// places changed (the caller then loads a whole snapshot instead of reading the changes twice).
    func changes(since revision: Int64, limit: Int) async throws -> PlaceChanges?

    /// Runs `body` inside one write transaction: everything it upserts is committed together, or nothing if it throws.
    func withSeedTransaction<T: Sendable>(_ body: @Sendable (inout any SeedWriter) throws -> T) async throws -> T

    /// Stores a place added through the API or the CLI; `conflict` when the id is taken.
    func insert(_ place: Place) async throws
    /// When the person added the places they added at or after `since`, oldest first.
    func additionTimes(ownerID: String, since: Date) async throws -> [Date]

    /// Saves a changed place whole (content, owner, deletion); `not_found` when it is not stored.
    func update(_ place: Place) async throws

    /// Marks or unmarks a favourite (idempotent).
    func setFavorite(userID: String, placeID: String, favorite: Bool, now: Date) async throws

    /// The user's favourites: place ids and when each was marked, newest first.
    func favorites(userID: String) async throws -> [(placeID: String, createdAt: Date)]

    /// Stores the user's rating of a place (replacing theirs) and returns the place's new aggregate.
    func save(_ rating: Rating) async throws -> RatingAggregate

    /// Removes the user's rating of a place; returns the new aggregate, or nil when there was none.
    func deleteRating(userID: String, placeID: String) async throws -> RatingAggregate?

    /// Live places matching every word (as a prefix) in name, description, tags or cuisine, inside the circle when
    /// given, ordered by relevance, then distance, then id; the page's offset and limit apply.
    func search(_ query: PlaceSearchQuery) async throws -> [(place: Place, relevance: Double, distanceMeters: Double?)]

    /// How many live places are stored.
    func liveCount() async throws -> Int

    /// True when no place was ever stored (a new database that first start should seed).
    func isEmpty() async throws -> Bool
}

/// Writes seeded places inside a seed transaction.
public protocol SeedWriter {
    /// Inserts the place or brings the stored one back to it; throws `conflict` when the id belongs to a place
    /// that seeds do not own (one added through the API), and `invalid_input` when this transaction already wrote
    /// the id (a file naming it twice).
    mutating func upsert(_ place: Place) throws
}

/// Every live place's summary at one revision of the change counter.
public struct PlaceSnapshot: Sendable {
    /// The summaries.
    public var summaries: [PlaceSummary]
    /// The change counter they are current at.
    public var revision: Int64

    /// Makes a snapshot.
    public init(summaries: [PlaceSummary], revision: Int64) {
        self.summaries = summaries
        self.revision = revision
    }
}

/// Places that changed after some revision: the live ones as they are now, and the ids of those deleted.
public struct PlaceChanges: Sendable {
    /// Places changed and live, in revision order.
    public var upserted: [PlaceSummary]
    /// Ids of places deleted since.
    public var deleted: [String]
    /// The change counter this is current at.
    public var revision: Int64

    /// Makes a change set.
    public init(upserted: [PlaceSummary], deleted: [String], revision: Int64) {
        self.upserted = upserted
        self.deleted = deleted
        self.revision = revision
    }
}
