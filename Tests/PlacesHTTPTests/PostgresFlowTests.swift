import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PlacesCore
import PlacesHTTP
import PlacesPostgres
import PlacesTestPostgres
import PostgresNIO
import Testing

/// The HTTP flows a new user tries first, on an application over PostgreSQL (a schema of its own per test): the same
/// answers as over SQLite, through the same services.
@Suite("HTTP flows on PostgreSQL", TestPostgres.enabled)
struct PostgresFlowTests {
    /// Runs `test` with a client of an application over a fresh PostgreSQL schema holding `places`.
    static func withClient(_ places: [Place], _ test: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let database = try await TestPostgres.database()
        do {
            try await database.places.seed(places)
            try await TestApp.postgres(database).test(.router, test)
        } catch {
            try? await PostgresStore(database: database).close()
            throw error
        }
        try await PostgresStore(database: database).close()
    }

    @Test func thePoolIsMeasuredForOperators() async throws {
        // swift-metrics has one backend per process (the shared registry); the database's gauges are made when it
        // opens, after it. Read straight from the registry: rendering would set the shared gauges other tests check.
        let shared = MetricsEndpointTests.metrics.registry
        try await Self.withClient(Lisbon.places) { client in
            _ = try await client.signUp("ops")
            let samples = try MetricsEndpointTests.samples(String(decoding: shared.emitToBuffer(), as: UTF8.self))
            #expect((samples["places_database_connection_wait_seconds_count"] ?? 0) >= 2)
            #expect(samples["places_database_connections_in_use"] != nil)
        }
    }

    /// A NUL never reaches PostgreSQL (whose text cannot hold one): every path, body, query and cursor refuses it with
    /// 400 naming the field, as on SQLite (`ReliableAnswerTests`).
    @Test func aNULIsRefusedInEveryPathBodyQueryAndCursor() async throws {
        try await Self.withClient(Lisbon.places) { client in try await NULProbe.run(client) }
    }

    /// Meet from the participants' locations and the visit time, stored and read back on PostgreSQL.
    @Test func meetFromTheParticipantsAtAVisitTime() async throws {
        try await Self.withClient(MeetCandidatesTests.places) { client in try await MeetCandidatesTests.meetFromTheParticipants(client) }
        try await Self.withClient(MeetCandidatesTests.places) { client in try await MeetCandidatesTests.visitTimes(client) }
    }

    @Test func registerFindNearbyAddAPlaceAndSettleATieredDecision() async throws {
        try await Self.withClient(Lisbon.places) { client in
            let crew = try await client.crew("Friday crew", admin: "ana", members: ["ben", "cyd"])

            let nearby = try await client.object(.get, "/v1/places/nearby?lat=38.7130&lon=-9.1450&radius=1", token: nil)
            let nearest = (nearby["places"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(nearest?.first == "lx-a-tasca")
            #expect(nearest?.count == Lisbon.places.count)

            let added = try await client.object(
                .post,
                "/v1/places",
                token: crew.ana,
                body: ["name": "Café Escondido", "kind": "gem", "lat": 38.7131, "lon": -9.1451],
                expect: .created
            )
            let addedID = try #require(added["id"] as? String)
            let found = try await client.object(.get, "/v1/places/search?q=cafe%20escon", token: nil)
            #expect((found["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [addedID])
            let near = try await client.object(.get, "/v1/places/nearby?lat=38.7131&lon=-9.1451&radius=1&limit=1", token: nil)
            #expect((near["places"] as? [[String: Any]])?.first?["id"] as? String == addedID)

            let started = try await client.object(
                .post,
                "/v1/decisions",
                token: crew.ana,
                body: ["groupId": crew.id, "method": "tiered", "candidates": ["placeIds": ["lx-a-tasca", "lx-c-cantina", addedID]]],
                expect: .created
            )
            let id = try #require(started["id"] as? String)
            _ = try await client.object(.put, "/v1/decisions/\(id)/ballot", token: crew.ana, body: ["ranking": [addedID, "lx-a-tasca"]])
            _ = try await client.object(.put, "/v1/decisions/\(id)/ballot", token: crew.ben, body: ["ranking": ["lx-a-tasca", addedID]])
            let done = try await client.object(.put, "/v1/decisions/\(id)/ballot", token: crew.cyd, body: ["ranking": [addedID]])
            #expect(done["status"] as? String == "completed")
            #expect((done["result"] as? [String: Any])?["winner"] as? String == addedID)
            #expect(try await client.notifications(crew.ben, kind: "decisionCompleted").count == 1)
        }
    }
}

/// Read-your-writes across two instances over one PostgreSQL database while another transaction holds the change
/// feed's horizon back (an operator's, left open), and while a seed into the live database is open (which does not).
@Suite("Revisions on PostgreSQL under an open transaction", TestPostgres.enabled)
struct PostgresRevisionTests {
    static let revisionHeader = HTTPFields.Element.Name("Places-Revision")!
    static let minimumHeader = HTTPFields.Element.Name("Places-Min-Revision")!
    static let reachedHeader = HTTPFields.Element.Name("Places-Revision-Reached")!


    @Test func aWriteIsInItsOwnAnswerAndAnotherInstanceHasItOnceTheOlderTransactionEnds() async throws {
        let database = try await TestPostgres.database()
        do {
            try await database.places.seed([TestApp.place("a", 40, -74)])
            let first = try await TestApp.postgres(database)
            // The second follows the feed as a server's index does: when a sync finds changes waiting above the horizon
            // (held by any transaction of the database still open), it looks again a few milliseconds later. Without
            // it, a sync that reached the write while the seed's announcement still waited above the horizon was the
            // last: the reads below ask for the write's revision, which the index had reached, so nothing synced again
            // and the seed never came. One full run in five failed so when some transaction happened to hold the
            // horizon there; `lingering` below holds it there every time.
            let second = try await TestApp.postgres(database, following: .seconds(1))
            // An operator's transaction, started before the write and still open: the horizon stays below it. A seed
            // into the live database, open too, does not hold it (it is announced once it commits).
            let operatorSession = try await TestPostgres.operatorConnection(to: database)
            defer { Task { try? await operatorSession.close() } }
            try await operatorSession.query("BEGIN", logger: Logger(label: "operator"))
            try await operatorSession.query("UPDATE place SET name = 'Held' WHERE id = 'a'", logger: Logger(label: "operator"))
            let seed = try await database.places.beginSeed()
            #expect(try await seed.upsert([TestApp.place("seeded", 40.0002, -74.0002)]).isEmpty)
            let written = try await first.test(.router) { client in
                let response = try await client.signUpAndAddNewSpot("ana")
                let revision = try #require(response.headers[Self.revisionHeader].flatMap { Int64($0) })
                let own = try await client.json(.get, "/v1/places/nearby?lat=40&lon=-74&radius=1")
                #expect(try TestApp.object(own.body)["count"] as? Int == 2, "the write is in its own instance's answers")
                return revision
            }
            try await second.test(.router) { client in
                let held = try await client.json(
                    .get,
                    "/v1/places/nearby?lat=40&lon=-74&radius=1",
                    headers: [Self.minimumHeader: String(written)]
                )
                #expect(held.headers[Self.reachedHeader] == "false", "the open transaction holds the feed below the write")
                #expect(try TestApp.object(held.body)["count"] as? Int == 1)
            }
            // A second transaction, which takes its id after the write's and before the seed's announcement, and stays
            // open a little longer than the first.
            let lingering = try await TestPostgres.operatorConnection(to: database)
            defer { Task { try? await lingering.close() } }
            try await lingering.query("BEGIN", logger: Logger(label: "operator"))
            try await lingering.query("SELECT pg_current_xact_id()", logger: Logger(label: "operator"))
            try await seed.commit()
            try await operatorSession.query("COMMIT", logger: Logger(label: "operator"))
            try await second.test(.router) { client in
                let read = {
                    try await client.json(.get, "/v1/places/nearby?lat=40&lon=-74&radius=1", headers: [Self.minimumHeader: String(written)])
                }
                var fresh = try await read()
                // The seed is announced after it commits, at a position past the write's: an answer that reached the write
                // comes before the announcement does while a transaction holds the horizon between them.
                #expect(fresh.headers[Self.reachedHeader] == "true")
                #expect(try TestApp.object(fresh.body)["count"] as? Int == 2, "the write, and not yet the seed")
                // Once it ends, the index (following the feed) reads the announcement a moment later.
                try await lingering.query("COMMIT", logger: Logger(label: "operator"))
                var tries = 0
                while try TestApp.object(fresh.body)["count"] as? Int != 3, tries < 100 {
                    tries += 1
                    try await Task.sleep(for: .milliseconds(50))
                    fresh = try await read()
                }
                #expect(try TestApp.object(fresh.body)["count"] as? Int == 3, "the write and the seed, once the older transaction ended")
                #expect((fresh.headers[Self.revisionHeader].flatMap { Int64($0) } ?? 0) >= written)
            }
        } catch {
            try? await PostgresStore(database: database).close()
            throw error
        }
        try await PostgresStore(database: database).close()
    }
}

extension TestApp {
    /// An application over a PostgreSQL `database` with the test defaults and its index loaded: one instance of a
    /// cluster when several share its schema. A `listening` one hears the other instances' commits as `places serve`
    /// does (the feed's channel wakes its live streams). A `following` one has its index follow the feed as `places
    /// serve`'s does (`IndexSubscriber`), polling every `following` and looking again soon while changes wait above
    /// the horizon; otherwise its index syncs only when a request asks for it.
    static func postgres(
        _ database: PostgresPlacesDatabase,
        clock: @escaping @Sendable () -> Date = { TestApp.now },
        listening: Bool = false,
        following poll: Duration? = nil,
        live: LiveFeed.Settings = LiveFeed.Settings()
    ) async throws -> some ApplicationProtocol {
        let services = PlacesServices(
            repositories: database.repositories,
            hasher: try TestApp.hasher(),
            throttle: TestApp.throttle(),
            hashing: TestApp.hashing(),
            clock: clock,
            live: live
        )
        try await services.places.loadIndex()
        let feed = services.feed
        let listener = BackgroundTask("change feed's notifications") {
            await database.listenForChanges(listening: { feed.listening($0) }) { feed.wake() }
        }
        return buildApplication(
            settings: TestApp.settings,
            services: services,
            background: listening ? [listener] : [],
            feedSubscribers: poll.map { [IndexSubscriber(services.places, poll: $0)] } ?? [],
            logger: Logger(label: "test")
        )
    }
}
