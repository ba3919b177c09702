import Foundation

/// The places use cases: nearby queries from the index, place details from the repository, and keeping the
/// index in step with the database.
public struct PlaceService: Sendable {
    /// A change set larger than this is loaded as a whole snapshot rather than applied place by place.
    static let largeChangeSet = 50_000

    let repository: any PlaceRepository
    let index: PlaceIndex
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
        var generator = SystemRandomNumberGenerator()
        let hex = String(generator.next() as UInt64, radix: 16)
        return "p-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The places near a point, nearest first (by distance, then id).
    public func nearby(_ query: NearbyQuery) -> NearbyAnswer {
        NearbyAnswer(query: query, places: index.nearby(query))
    }

    /// The live place with this id, or `not_found`.
    public func place(id: String) async throws -> Place {
        try PlaceDraft.checkID(id)
        guard let place = try await repository.place(id: id), place.deletedAt == nil else {
            throw PlacesError.notFound("no place with id '\(id)'")
        }
        return place
    }

    /// Loads every live place into the index (start-up).
    public func loadIndex() async throws {
        index.replaceAll(try await repository.liveSummaries())
    }

    /// Applies what other writers committed since the index's revision; returns how many places changed.
    @discardableResult
    public func syncIndex() async throws -> Int {
        guard let changes = try await repository.changes(since: index.revision, limit: PlaceService.largeChangeSet) else {
            let before = index.revision
            try await loadIndex()
            return index.revision > before ? index.count : 0
        }
        if index.wantsCompaction {
            try await loadIndex()
        } else if changes.revision > index.revision {
            index.apply(changes)
        }
        return changes.upserted.count + changes.deleted.count
    }

    /// How many live places the index holds.
    public var indexedCount: Int { index.count }
}
