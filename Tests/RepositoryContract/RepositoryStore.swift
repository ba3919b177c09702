import PlacesCore

/// A fresh, empty database of one engine, seen only through Core's repository protocols.
///
/// The contract suites know nothing else about the engine: an engine's test target makes stores with its own factory
/// (a file in a temporary folder, a database in memory, a server's schema) and runs every `ContractCase` on them.
public protocol RepositoryStore: Sendable {
    /// Places, their ratings, favourites, seeds and the change feed.
    var places: any PlaceRepository { get }
    /// Photos and their bytes.
    var photos: any PhotoRepository { get }
    /// Accounts, sessions and settings.
    var accounts: any AccountRepository { get }
    /// Friendships, groups, members and invitations.
    var groups: any GroupRepository { get }
    /// Collections and their entries.
    var collections: any CollectionRepository { get }
    /// Decisions and ballots.
    var decisions: any DecisionRepository { get }
    /// Decisions' conversations.
    var messages: any MessageRepository { get }
    /// Notifications.
    var notifications: any NotificationRepository { get }
    /// The login throttle's attempts.
    var throttle: any ThrottleRepository { get }
    /// Leases of tasks that run on one instance at a time.
    var leases: any LeaseRepository { get }
    /// Live streams' reads of the feed, and their leases.
    var live: any LiveRepository { get }
    /// The change feed's own operations (its horizon, pruning).
    var feed: any ChangeFeedRepository { get }

    /// The change feed's rows in the order they were written (kind, subject, detail, version), read by the engine's
    /// own SQL: what the feed's triggers record, whoever writes.
    func feedRows() async throws -> [FeedRow]

    /// Runs one SQL statement as it is (the same text on both engines): a row as a newer release would write it.
    func execute(sql: String) async throws

    /// Releases what the store holds (a temporary folder, a connection); called once, after the case.
    func close() async throws
}

/// One row of the change feed, as the contract compares it.
public struct FeedRow: Sendable, Hashable, CustomStringConvertible {
    public var kind: String
    public var subject: String
    public var detail: String?
    public var version: Int64?

    public init(_ kind: String, _ subject: String, _ detail: String? = nil, version: Int64? = nil) {
        self.kind = kind
        self.subject = subject
        self.detail = detail
        self.version = version
    }

    public var description: String { "\(kind) \(subject) \(detail ?? "-") \(version.map(String.init) ?? "-")" }
}

/// Makes a fresh, empty store for one case.
public typealias RepositoryStoreFactory = @Sendable () async throws -> any RepositoryStore

extension RepositoryStore {
    /// A search as the service answers it: from an index loaded from this store's places, so the engine's summaries
    /// (their words, descriptions included) decide what it finds.
    func search(_ query: PlaceSearchQuery) async throws -> Page<PlaceSearchHit> {
        try await PlaceService(repository: places, index: PlaceIndex()).search(query)
    }
}
