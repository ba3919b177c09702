import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PlacesCore
import PlacesHTTP
import PlacesPostgres
import PlacesSQLite
import PlacesTestPostgres
import Synchronization
import Testing

/// A decision repository that counts the reads of a decision (`state(decisionID:)`) and passes everything on.
final class CountingDecisions: DecisionRepository {
    let base: any DecisionRepository
    private let count = Mutex(0)

    init(_ base: any DecisionRepository) { self.base = base }

    /// Reads of a decision so far.
    var reads: Int { count.withLock { $0 } }

    func insert(_ decision: Decision, notifications: [UserNotification]) async throws {
        try await base.insert(decision, notifications: notifications)
    }

    func state(decisionID: String) async throws -> DecisionState? {
        count.withLock { $0 += 1 }
        return try await base.state(decisionID: decisionID)
    }

    func decisions(visibleTo userID: String, groupIDs: [String], page: PageRequest) async throws -> Page<DecisionState> {
        try await base.decisions(visibleTo: userID, groupIDs: groupIDs, page: page)
    }

    func save(_ state: DecisionState, replacing previous: DecisionState) async throws -> SavedDecision? {
        try await base.save(state, replacing: previous)
    }

    func activeDecisions(groupID: String, participant userID: String) async throws -> [String] {
        try await base.activeDecisions(groupID: groupID, participant: userID)
    }

    func activeDecisions(dueBy date: Date) async throws -> [String] { try await base.activeDecisions(dueBy: date) }

    func recentWinners(groupID: String?, createdBy userID: String, since: Date) async throws -> Set<String> {
        try await base.recentWinners(groupID: groupID, createdBy: userID, since: since)
    }

    func activeCount() async throws -> Int { try await base.activeCount() }

    func activeCount(startedBy userID: String) async throws -> Int { try await base.activeCount(startedBy: userID) }
}

/// What live streams read of a decision: once as a stream opens, and once for each ballot whatever the number of
/// streams that follow the decision (their readers' views, voted or not, are made from that one read), on both engines.
@Suite("Live streams' reads of a decision")
struct LiveStreamReadsTests {
    /// Reads of the decision when one stream opens, and when a ballot reaches `streams` open streams held by a group of
    /// that many members (ana the admin votes; half the others voted before the streams opened, so both kinds of
    /// reader are there).
    static func reads(streams: Int, over repositories: PlacesServices.Repositories) async throws -> (opening: Int, ballot: Int) {
        let counting = CountingDecisions(repositories.decisions)
        var repositories = repositories
        repositories.decisions = counting
        let services = PlacesServices(
            repositories: repositories,
            hasher: try TestApp.hasher(),
            throttle: TestApp.throttle(),
            hashing: TestApp.hashing(),
            clock: { Date() }
        )
        try await services.places.loadIndex()
        let app = buildApplication(settings: TestApp.settings, services: services, logger: Logger(label: "test"))
        return try await app.test(.live) { client in
            let port = try #require(client.port)
            let members = (1..<streams).map { "member\($0)" }
            let crew = try await client.crew("Dinner", admin: "ana", members: members)
            let decision = try await EventStreamTests.startDecision(client, crew)
            for member in members.prefix(members.count / 2) {
                try await EventStreamTests.vote(client, decision, crew.token(member), [Lisbon.places[0].id])
            }
            let before = counting.reads
            var open = [try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.ana)]
            try await open[0].events(1)
            let opening = counting.reads - before
            for member in members {
                open.append(try await EventStreamClient.open(port: port, "/v1/decisions/\(decision)/events", token: crew.token(member)))
            }
            for stream in open { try await stream.events(1) }
            let start = counting.reads
            try await EventStreamTests.vote(client, decision, crew.ana, [Lisbon.places[1].id])
            for stream in open {
                let events = try await stream.events(2)
                #expect(events[1].name == "ballot")
            }
            let ballot = counting.reads - start
            for stream in open { stream.close() }
            return (opening, ballot)
        }
    }

    @Test func aBallotReadsTheDecisionAsOftenForTwelveStreamsAsForTwoAndAStreamOpensWithOneRead() async throws {
        var counts: [(opening: Int, ballot: Int)] = []
        for streams in [2, 12] {
            let database = try PlacesDatabase.inMemory()
            try await database.places.seed(Lisbon.places)
            counts.append(try await Self.reads(streams: streams, over: database.repositories))
        }
        let (two, twelve) = (counts[0], counts[1])
        #expect(two.opening == 1)
        #expect(twelve.opening == 1)
        // The ballot's own use case reads it, and the streams' one delivery once more (before: once per stream).
        #expect(twelve.ballot == two.ballot, "\(twelve.ballot) reads for 12 streams, \(two.ballot) for 2")
        #expect(twelve.ballot <= 3, "\(twelve.ballot) reads")
    }

    @Test(TestPostgres.enabled) func onPostgreSQLToo() async throws {
        var counts: [(opening: Int, ballot: Int)] = []
        for streams in [2, 12] {
            let database = try await TestPostgres.database()
            do {
                try await database.places.seed(Lisbon.places)
                counts.append(try await Self.reads(streams: streams, over: database.repositories))
            } catch {
                try? await PostgresStore(database: database).close()
                throw error
            }
            try await PostgresStore(database: database).close()
        }
        #expect(counts.map(\.opening) == [1, 1])
        #expect(counts[1].ballot == counts[0].ballot, "\(counts)")
        #expect(counts[1].ballot <= 3, "\(counts)")
    }
}
