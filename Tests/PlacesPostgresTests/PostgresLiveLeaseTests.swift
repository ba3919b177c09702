import Foundation
import PlacesCore
import PlacesTestPostgres
import PostgresNIO
import Testing

@testable import PlacesPostgres

/// What keeping live streams leased costs in PostgreSQL: a renewal writes its holder's one row, never a stream's, and
/// wakes nobody (the others' listeners hear no notification for it, nor this process's reader of the feed).
@Suite("PostgreSQL live stream leases", TestPostgres.enabled)
struct PostgresLiveLeaseTests {
    /// Every row of `table` by its first column, with the transaction that last wrote it (`xmin`).
    static func versions(_ table: String, of database: PostgresPlacesDatabase) async throws -> [String: String] {
        try await database.read { connection in
            var versions: [String: String] = [:]
            let key = table == "live_holder" ? "holder" : "id"
            let query = PostgresQuery(unsafeSQL: "SELECT \(key) AS key, xmin::text AS version FROM \(table)")
            for row in try await connection.rows(query, logger: database.logger) {
                versions[try row.get("key", as: String.self)] = try row.get("version", as: String.self)
            }
            return versions
        }
    }

    @Test func aRenewalRewritesItsHoldersRowAloneWhateverItsStreamsAndRingsNothing() async throws {
        let database = try await TestPostgres.database()
        do {
            let live = database.live
            for index in 0..<300 {
                let opened = try await live.openStream(
                    id: "s-\(index)",
                    userID: "u-\(index / 5)",
                    holder: index % 3 == 0 ? "b" : "a",
                    now: Date(timeIntervalSince1970: 0),
                    until: Date(timeIntervalSince1970: 20),
                    allowed: 5
                )
                #expect(opened)
            }
            let bell = Doorbell()
            database.feed.commits.add(bell)
            _ = bell.rangSinceLastLook()
            let streams = try await Self.versions("live_stream", of: database)
            let holders = try await Self.versions("live_holder", of: database)
            #expect(streams.count == 300 && holders.count == 2)
            try await live.renewStreams(holder: "a", until: Date(timeIntervalSince1970: 40))
            #expect(try await Self.versions("live_stream", of: database) == streams, "no stream's row was written")
            let renewed = try await Self.versions("live_holder", of: database)
            #expect(renewed["b"] == holders["b"])
            #expect(renewed["a"] != holders["a"])
            #expect(!bell.rangSinceLastLook(), "a renewal adds nothing to the feed: no reader wakes for it")
        } catch {
            try? await PostgresStore(database: database).close()
            throw error
        }
        try await PostgresStore(database: database).close()
    }
}
