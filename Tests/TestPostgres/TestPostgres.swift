import Foundation
import PlacesCore
import Logging
import PostgresNIO
import PlacesRepositoryContract

import PlacesPostgres
import Testing

/// The PostgreSQL server the tests use: the one `PLACES_TEST_POSTGRES_URL` names (`.ci/run` starts one and sets it),
/// else a private one the run starts on first use when PostgreSQL's server programs are installed (`PrivateTestServer`).
///
/// With neither the suites are skipped on a developer's machine, saying why, and fail under CI (`CI` set): a suite that
/// needs PostgreSQL never passes by not running. A private server that fails to start fails the suites, with its reason.
public enum TestPostgres {
    /// The server named by the environment, which overrides the private one.
    public static let configuredURL = ProcessInfo.processInfo.environment["PLACES_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    public static let underCI = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false

    /// Whether the PostgreSQL suites run: a server is named, one can be started, or CI (where a missing server fails them).
    public static var available: Bool { configuredURL != nil || PrivateTestServer.installed || underCI }

    /// Runs the suite when `available`, else skips it saying why.
    public static let enabled = Testing.ConditionTrait.enabled(
        if: available,
        "PostgreSQL suites need PostgreSQL's server programs (Debian's postgresql package) and python3, or PLACES_TEST_POSTGRES_URL"
    )

    /// The server's URL: the configured one, else the run's private server, started once by the first test that asks.
    static let url: Result<String, PlacesError> = {
        if let configuredURL { return .success(configuredURL) }
        guard PrivateTestServer.installed else {
            return .failure(
                PlacesError(.unavailable, "PLACES_TEST_POSTGRES_URL is not set, PostgreSQL is not installed, and CI needs the PostgreSQL suites")
            )
        }
        return PrivateTestServer.url()
    }()

    /// The server's location; fails the test when there is none.
    public static func location() throws -> PostgresLocation {
        try PostgresLocation(url: try url.get())
    }

    /// A fresh, migrated database in a schema of its own. A full test run starts hundreds of cases at once on a few
    /// cores, so a connection may take longer to come than a request waits in production (3 s); no case measures it.
    public static func database() async throws -> PostgresPlacesDatabase {
        let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        return try await PostgresPlacesDatabase.open(try location(), schema: schema, maximumConnections: 8, leaseTimeout: .seconds(30))
    }

    /// A connection of its own to the database's schema, as an operator's psql would be: it holds a transaction open as
    /// long as the test says. It carries the schema's name (the feed's horizon leaves out other Places schemas'
    /// transactions, so that the cases running at once on one server do not hold each other's feed back), as an
    /// operator's psql in a database of its own would count.
    public static func operatorConnection(to database: PostgresPlacesDatabase) async throws -> PostgresConnection {
        var configuration = try database.location.connectionConfiguration
        configuration.options.additionalStartupParameters = [
            ("search_path", database.schema ?? "public"), ("application_name", database.applicationName),
        ]
        return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "operator"))
    }
}

/// A PostgreSQL schema seen through Core's repository protocols; dropped on close.
public struct PostgresStore: RepositoryStore {
    public let database: PostgresPlacesDatabase

    public init(database: PostgresPlacesDatabase) { self.database = database }

    public var places: any PlaceRepository { database.places }
    public var photos: any PhotoRepository { database.photos }
    public var accounts: any AccountRepository { database.accounts }
    public var groups: any GroupRepository { database.groups }
    public var collections: any CollectionRepository { database.collections }
    public var decisions: any DecisionRepository { database.decisions }
    public var messages: any MessageRepository { database.messages }
    public var notifications: any NotificationRepository { database.notifications }
    public var throttle: any ThrottleRepository { database.throttle }
    public var leases: any LeaseRepository { database.leases }
    public var live: any LiveRepository { database.live }
    public var feed: any ChangeFeedRepository { database.feed }

    public func feedRows() async throws -> [FeedRow] {
        try await database.feedRows().map { FeedRow($0.kind, $0.subject, $0.detail, version: $0.version) }
    }

    public func execute(sql: String) async throws {
        let connection = try await TestPostgres.operatorConnection(to: database)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "operator"))
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    public func close() async throws {
        try await database.dropSchema()
        database.close()
    }
}
