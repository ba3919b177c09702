import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PlacesCore
import PlacesHTTP
import PlacesPostgres
import PlacesTestPostgres
import Testing

/// Live streams across two instances over one PostgreSQL database (a schema of its own per test): what is done through
/// one reaches a stream held by the other, once and in order.
@Suite("Live event streams on PostgreSQL", TestPostgres.enabled)
struct PostgresEventStreamTests {
    @Test func ballotsThroughOneInstanceReachAStreamOnAnotherOnceAndInOrderAndItResumesThere() async throws {
        let first = try await TestPostgres.database()
        let second = try await PostgresPlacesDatabase.open(
            try TestPostgres.location(),
            schema: first.schema,
            maximumConnections: 8,
            leaseTimeout: .seconds(30)
        )
        do {
            try await first.places.seed(Lisbon.places)
            let writer = try await TestApp.postgres(first, clock: { Date() }, listening: true)
            let reader = try await TestApp.postgres(second, clock: { Date() }, listening: true)
            try await writer.test(.live) { writerClient in
                try await reader.test(.live) { readerClient in
                    let port = try #require(readerClient.port)
                    let crew = try await writerClient.crew("Dinner", admin: "ana", members: ["ben", "cleo"])
                    let decision = try await EventStreamTests.startDecision(writerClient, crew)
                    let stream = try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.cleo)
                    try await stream.events(1)
                    for round in 0..<10 {
                        try await EventStreamTests.vote(writerClient, decision, round % 2 == 0 ? crew.ana : crew.ben, [Lisbon.places[round % 4].id])
                    }
                    let events = try await stream.events(11)
                    #expect(events.dropFirst().map(\.name) == Array(repeating: "ballot", count: 10))
                    #expect(
                        events.dropFirst().map { ($0.object["voter"] as? [String: Any])?["username"] as? String }
                            == (0..<10).map { $0 % 2 == 0 ? "ana" : "ben" }
                    )
                    #expect(Set(events.compactMap(\.id)).count == 11)
                    // A stream holds no database connection: more streams than the reader's pool has connections (8),
                    // and a ballot through that instance still answers and reaches them all.
                    var crowd: [EventStreamClient] = []
                    for token in Array(repeating: crew.ana, count: 5) + Array(repeating: crew.ben, count: 5) {
                        crowd.append(try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: token))
                    }
                    for member in crowd { try await member.events(1) }
                    try await EventStreamTests.vote(readerClient, decision, crew.ana, [Lisbon.places[3].id])
                    for member in crowd { #expect(try await member.events(2)[1].name == "ballot") }
                    try await stream.events(12)
                    for member in crowd { member.close() }
                    stream.close()
                    // Resumed on the instance where the ballots went, after the fifth: the other five, then live.
                    let resumed = try await EventStreamClient.open(
                        port: try #require(writerClient.port),
                        "/v1/decisions/\(decision)/events",
                        token: crew.cleo,
                        lastEventID: events[5].id
                    )
                    try await EventStreamTests.vote(writerClient, decision, crew.cleo, [Lisbon.places[0].id])
                    let rest = try await resumed.events(8)
                    #expect(Array(rest.map(\.id).prefix(5)) == events.suffix(5).map(\.id))
                    #expect(rest.suffix(2).map(\.name) == ["ballot", "ended"])
                    try await resumed.closed()
                }
            }
        } catch {
            second.close()
            try? await PostgresStore(database: first).close()
            throw error
        }
        second.close()
        try await PostgresStore(database: first).close()
    }

    @Test func anIdAheadOfTheFeedGetsASnapshotThenWhatFollowsNeverASilentStream() async throws {
        try await Self.withDecision { client, port, crew, decision in
            try await EventStreamTests.idsAheadOfTheFeedGetASnapshot(client, port: port, crew: crew, decision: decision)
        }
    }

    @Test func aStreamItsClientClosesFreesItsPlaceAtOnce() async throws {
        try await Self.withDecision { client, port, crew, decision in
            try await EventStreamTests.aClosedStreamFreesItsPlace(client, port: port, crew: crew, decision: decision)
        }
    }

    /// One live server over PostgreSQL (keep-alives a year apart), with `EventStreamTests.withDecision`'s crew and
    /// decision.
    static func withDecision(_ test: @Sendable (any TestClientProtocol, Int, Crew, String) async throws -> Void) async throws {
        let database = try await TestPostgres.database()
        do {
            try await database.places.seed(Lisbon.places)
            let app = try await TestApp.postgres(database, clock: { Date() }, listening: true, live: EventStreamTests.noKeepAlive)
            try await app.test(.live) { client in
                let port = try #require(client.port)
                let crew = try await client.crew("Dinner", admin: "ana", members: ["ben", "cleo"], outsiders: ["dan"])
                try await test(client, port, crew, try await EventStreamTests.startDecision(client, crew))
            }
        } catch {
            try? await PostgresStore(database: database).close()
            throw error
        }
        try await PostgresStore(database: database).close()
    }
}
