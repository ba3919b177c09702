import PlacesCore

/// A fresh, empty database of one engine, seen only through Core's repository protocols.
///
/// The contract suites know nothing else about the engine: an engine's test target makes stores with its own factory
/// (a file in a temporary folder, a database in memory, a server's schema) and runs every `ContractCase` on them.
public protocol RepositoryStore: Sendable {
    /// Places, their ratings, favourites, seeds and the change feed.
    var places: any PlaceRepository { get }
    /// Accounts, sessions and settings.
    var accounts: any AccountRepository { get }
    /// Friendships, groups, members and invitations.
    var groups: any GroupRepository { get }
    /// Collections and their entries.
    var collections: any CollectionRepository { get }
    /// Decisions and ballots.
    var decisions: any DecisionRepository { get }
    /// Notifications.
    var notifications: any NotificationRepository { get }
    /// The login throttle's attempts.
    var throttle: any ThrottleRepository { get }
    /// Leases of tasks that run on one instance at a time.
    var leases: any LeaseRepository { get }

    /// Releases what the store holds (a temporary folder, a connection); called once, after the case.
    func close() async throws
}

/// Makes a fresh, empty store for one case.
public typealias RepositoryStoreFactory = @Sendable () async throws -> any RepositoryStore
