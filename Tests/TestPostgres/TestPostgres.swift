import Foundation
import PlacesCore
import PlacesPostgres
import PlacesRepositoryContract
import Testing

/// The PostgreSQL server the tests use: `PLACES_TEST_POSTGRES_URL` (`.ci/run` starts a private one and sets it).
///
/// Without it the suites are skipped on a developer's machine, saying why, and fail under CI (`CI` set): a suite that
/// needs PostgreSQL never passes by not running.
public enum TestPostgres {
    public static let url = ProcessInfo.processInfo.environment["PLACES_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    public static let underCI = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false

    /// Runs the suite when there is a server, or under CI (where a missing server fails it).
    public static let enabled = Testing.ConditionTrait.enabled(
        if: url != nil || underCI,
        "PostgreSQL suites need PLACES_TEST_POSTGRES_URL (start one: python3 Tests/tools/private_postgres.py start /tmp/pg)"
    )

    /// The server's location; fails the test when there is none.
    public static func location() throws -> PostgresLocation {
        guard let url else {
            throw PlacesError(.unavailable, "PLACES_TEST_POSTGRES_URL is not set, and CI needs the PostgreSQL suites to run")
        }
        return try PostgresLocation(url: url)
    }

    /// A fresh, migrated database in a schema of its own. A full test run starts hundreds of cases at once on a few
    /// cores, so a connection may take longer to come than a request waits in production (3 s); no case measures it.
    public static func database() async throws -> PostgresPlacesDatabase {
        let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        return try await PostgresPlacesDatabase.open(try location(), schema: schema, maximumConnections: 8, leaseTimeout: .seconds(30))
    }
}

/// A PostgreSQL schema seen through Core's repository protocols; dropped on close.
public struct PostgresStore: RepositoryStore {
    public let database: PostgresPlacesDatabase

    public init(database: PostgresPlacesDatabase) { self.database = database }

    public var places: any PlaceRepository { database.places }
    public var accounts: any AccountRepository { database.accounts }
    public var groups: any GroupRepository { database.groups }
    public var collections: any CollectionRepository { database.collections }
    public var decisions: any DecisionRepository { database.decisions }
    public var notifications: any NotificationRepository { database.notifications }
    public var throttle: any ThrottleRepository { database.throttle }
    public var leases: any LeaseRepository { database.leases }

    public func close() async throws {
        try await database.dropSchema()
        database.close()
    }
}
