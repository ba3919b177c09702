import Foundation
import GeoIndex
import PlacesCore
import PlacesTestPostgres
import PlacesTestSupport
import PostgresNIO
import Testing

@testable import PlacesPostgres

/// The statements each connection prepares once (`PreparedStatement`): on one connection, so that every run after the
/// first runs what that connection prepared.
@Suite("PostgreSQL prepared statements", TestPostgres.enabled)
struct PreparedStatementTests {
    /// A database in a schema of its own whose pool holds one connection.
    static func oneConnection() async throws -> PostgresPlacesDatabase {
        let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        return try await PostgresPlacesDatabase.open(try TestPostgres.location(), schema: schema, maximumConnections: 1, leaseTimeout: .seconds(30))
    }

    static let now = TestPlaces.now

    /// Stores the account `ann` and answers its id.
    static func addAnn(_ database: PostgresPlacesDatabase) async throws -> String {
        let user = User(id: "u-ann", username: "ann", email: "ann@example.com", phone: nil, passwordHash: "hash", createdAt: now, updatedAt: now)
        try await database.accounts.insert(user)
        return user.id
    }

    /// A gem, owned by `owner` or seeded.
    static func place(_ id: String, owner: String? = nil) -> Place {
        TestPlaces.place(id, owner: owner, seedSource: "prepared.json")
    }

    @Test func aColumnThatALaterReleaseAddsDoesNotFailWhatARunningInstancePrepared() async throws {
        let database = try await Self.oneConnection()
        defer { database.close() }
        let owner = try await Self.addAnn(database)
        let token = "token-of-ann"
        try await database.accounts.insert(
            Session(tokenHash: SessionToken.hash(token), userID: owner, createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(86_400))
        )
        #expect(try await database.places.insert(Self.place("a", owner: owner), limit: nil))
        #expect(try await database.places.place(id: "a")?.name == "Place a")
        #expect(try await database.accounts.session(tokenHash: SessionToken.hash(token))?.user.id == owner)

        // A migration of the next release, run by one of its instances while this one keeps serving.
        let operatorConnection = try await TestPostgres.operatorConnection(to: database)
        try await operatorConnection.query("ALTER TABLE place ADD COLUMN next_release_note TEXT", logger: database.logger)
        try await operatorConnection.query("ALTER TABLE user_account ADD COLUMN next_release_note TEXT", logger: database.logger)
        try await operatorConnection.close()

        #expect(try await database.places.place(id: "a")?.name == "Place a")
        #expect(try await database.accounts.session(tokenHash: SessionToken.hash(token))?.user.id == owner)
        #expect(try await database.places.insert(Self.place("b", owner: owner), limit: nil))
        try await database.dropSchema()
    }

    @Test func aNullBoundAtTheFirstRunAndAValueLaterBindAlike() async throws {
        let database = try await Self.oneConnection()
        defer { database.close() }
        let rater = try await Self.addAnn(database)
        try await database.places.seed([Self.place("a")])
        // The first run binds NULL for the stars and the review (a rating removed), the next ones values.
        #expect(try await database.places.deleteRating(userID: rater, placeID: "a") == nil)
        var rating = Rating(placeId: "a", userId: rater, stars: 4, review: nil, createdAt: Self.now, updatedAt: Self.now)
        #expect(try await database.places.save(rating) == RatingAggregate(count: 1, sum: 4))
        rating.review = "Good"
        rating.stars = 2
        #expect(try await database.places.save(rating) == RatingAggregate(count: 1, sum: 2))
        try await database.dropSchema()
    }

    @Test func theFeedsReadAndAPlaceLookupArePrepared() async throws {
        let database = try await Self.oneConnection()
        defer { database.close() }
        _ = try await database.places.changes(since: 0, limit: 10)
        _ = try await database.places.place(id: "none")
        let names = try await database.read { connection in
            try await connection.rows("SELECT name FROM pg_prepared_statements ORDER BY name", logger: database.logger)
                .map { try $0.get("name", as: String.self) }
        }
        #expect(names.contains(PostgresPlaceRow.Lookup.name))
        #expect(names.contains(PostgresPlaceRepository.ChangesRead.name))
        try await database.dropSchema()
    }

    /// The feed's two reads (the index's and the live streams') keep the plans they made while the feed was nearly
    /// empty (PostgreSQL keeps one after five runs); once the feed holds many rows, those plans still find the rows
    /// after a position through the feed's index on `xid`, never by reading the whole table.
    @Test func theFeedsKeptPlansReadALargeFeedThroughItsIndex() async throws {
        let database = try await Self.oneConnection()
        defer { database.close() }
        try await database.places.seed([Self.place("a")])
        let start = FeedPosition(transaction: 0, row: 0)
        for _ in 0..<8 {
            _ = try await database.places.changes(since: 0, limit: 10)
            _ = try await database.live.events(after: start, limit: 10)
        }
        try await database.write { connection in
            try await connection.query(
                "INSERT INTO feed (kind, subject) SELECT 'member', 'g-' || n FROM generate_series(1, 20000) AS n",
                logger: database.logger
            )
        }
        // A position after the 20,000 rows: the reads find nothing, and read no row of the table to find it.
        let (changed, events, rowsScanned) = try await database.snapshot { connection in
            let last = try await connection.value("SELECT max(xid)::text::bigint FROM feed", as: Int64.self, logger: database.logger) ?? 0
            let changes = try await connection.rows(
                PostgresPlaceRepository.ChangesRead(ours: database.applicationName, revision: last, rereading: [], limit: 10),
                logger: database.logger
            )
            let events = try await connection.rows(
                PostgresLiveRepository.EventsRead(ours: database.applicationName, after: FeedPosition(transaction: last, row: Int64.max), limit: 10),
                logger: database.logger
            )
            let scanned = try await connection.value(
                "SELECT pg_stat_get_xact_tuples_returned('feed'::regclass)",
                as: Int64.self,
                logger: database.logger
            )
            return (
                changes.compactMap { try? $0.get("subject", as: String?.self) },
                events.compactMap { try? $0.get("kind", as: String?.self) },
                scanned
            )
        }
        #expect(changed.isEmpty)
        #expect(events.isEmpty)
        #expect(rowsScanned == 0)
        try await database.dropSchema()
    }

    /// A statement whose declared parameter is a number, bound to text.
    struct Mistyped: PreparedStatement {
        static let name = "places_test_mistyped"
        static let sql = "SELECT $1::bigint + 1 AS next"
        static let bindingDataTypes: [PostgresDataType] = [.int8]
        var values: [(any PostgresThrowingDynamicTypeEncodable & Sendable)?] { ["1"] }
    }

    @Test func aValueOfAnotherTypeThanItsParameterIsRefusedBeforeItIsSent() async throws {
        let database = try await Self.oneConnection()
        defer { database.close() }
        await #expect {
            try await database.read { connection in try await connection.row(Mistyped(), logger: database.logger) }
        } throws: { error in
            (error as? PlacesError)?.code == .internalError && "\(error)".contains("places_test_mistyped")
        }
        try await database.dropSchema()
    }
}
