import Foundation
import PlacesCore
import PlacesTestPostgres
import PostgresNIO
import Testing

@testable import PlacesPostgres

@Suite("PostgreSQL URLs")
struct PostgresLocationTests {
    @Test func aURLNamesServerUserDatabaseAndEncryption() throws {
        let location = try PostgresLocation(url: "postgres://places:s3cr%40t@db.example.com:5433/places?sslmode=verify-full", environment: [:])
        #expect(location.host == "db.example.com")
        #expect(location.port == 5433)
        #expect(location.username == "places")
        #expect(location.password == "s3cr@t")
        #expect(location.database == "places")
        #expect(location.sslMode == .verifyFull)
        let defaults = try PostgresLocation(url: "postgresql://app@localhost/places", environment: [:])
        #expect(defaults.port == 5432 && defaults.sslMode == .prefer && defaults.password == nil)
        for mode in ["disable", "prefer", "require", "verify-full"] {
            #expect(try PostgresLocation(url: "postgres://app@localhost/places?sslmode=\(mode)", environment: [:]).sslMode.rawValue == mode)
        }
    }

    @Test func pgpasswordStandsInForAPasswordTheURLLeavesOut() throws {
        let location = try PostgresLocation(url: "postgres://app@localhost/places", environment: ["PGPASSWORD": "from-env"])
        #expect(location.password == "from-env")
        let inURL = try PostgresLocation(url: "postgres://app:in-url@localhost/places", environment: ["PGPASSWORD": "from-env"])
        #expect(inURL.password == "in-url")
    }

    @Test(arguments: [
        "postgres://app:hunter2@localhost/places?sslmode=verify-ca",
        "postgres://app:hunter2@localhost/places?sslmode=",
        "postgres://app:hunter2@localhost/places?application_name=x",
        "postgres://app:hunter2@localhost/",
        "postgres://:hunter2@localhost/places",
        "postgres://",
    ])
    func aURLThatDoesNotReadIsInvalidInputWithoutThePassword(_ url: String) {
        #expect {
            try PostgresLocation(url: url, environment: [:])
        } throws: { error in
            guard let error = error as? PlacesError else { return false }
            return error.code == .invalidInput && error.field == "database" && !error.message.contains("hunter2")
        }
    }

    @Test func theDescriptionNeverShowsThePassword() throws {
        let location = try PostgresLocation(url: "postgres://app:hunter2@localhost:5432/places?sslmode=disable", environment: [:])
        #expect(location.description == "postgres://app:•••@localhost:5432/places?sslmode=disable")
        #expect(!"\(location)".contains("hunter2"))
    }
}

@Suite("PostgreSQL schema", TestPostgres.enabled)
struct PostgresMigrationTests {
    /// The schema versions recorded in the database.
    static func versions(_ database: PostgresPlacesDatabase) async throws -> [Int] {
        try await database.read { connection in
            try await connection.rows("SELECT version FROM schema_migration ORDER BY version", logger: database.logger).map {
                try $0.get("version", as: Int.self)
            }
        }
    }

    @Test func instancesStartingTogetherMigrateOnce() async throws {
        let location = try TestPostgres.location()
        let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let databases = try await withThrowingTaskGroup(of: PostgresPlacesDatabase.self) { group in
            for _ in 0..<4 { group.addTask { try await PostgresPlacesDatabase.open(location, schema: schema, maximumConnections: 2, leaseTimeout: .seconds(30)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(try await Self.versions(databases[0]) == PostgresPlacesDatabase.migrations.map(\.version))
        #expect(try await databases[1].places.isEmpty())
        try await databases[0].dropSchema()
        for database in databases { database.close() }
    }

    @Test func aSchemaNewerThanTheBinaryIsAClearError() async throws {
        let database = try await TestPostgres.database()
        try await database.write { connection in
            try await connection.execute("INSERT INTO schema_migration (version, name) VALUES (9999, 'from the future')", logger: database.logger)
        }
        let location = try TestPostgres.location()
        await #expect {
            _ = try await PostgresPlacesDatabase.open(location, schema: database.schema, maximumConnections: 1, leaseTimeout: .seconds(30))
        } throws: { error in
            guard let error = error as? PlacesError else { return false }
            return error.code == .unavailable && error.message.contains("9999") && error.message.contains("newer")
        }
        try await PostgresStore(database: database).close()
    }

    @Test func anUnreachableServerIsUnavailableWithoutThePassword() async throws {
        let location = try PostgresLocation(url: "postgres://app:hunter2@127.0.0.1:1/places?sslmode=disable", environment: [:])
        await #expect {
            _ = try await PostgresPlacesDatabase.open(location, maximumConnections: 1)
        } throws: { error in
            guard let error = error as? PlacesError else { return false }
            return error.code == .unavailable && !error.message.contains("hunter2") && error.message.contains("127.0.0.1")
        }
    }
}
