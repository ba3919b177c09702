import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import PlacesSQLite
import Synchronization
import Testing

/// SQL statements and database accesses (awaits of a read or a write) a test hears, counted while it listens.
final class StatementLog: Sendable {
    private let state = Mutex<(listening: Bool, statements: [String], accesses: Int)>((false, [], 0))

    /// Records a statement while listening. GRDB's own `PRAGMA query_only` around a read transaction of an in-memory
    /// queue is left out: a file's pool of readers, and a network engine, have no such statements.
    func record(_ sql: String) {
        guard !sql.hasPrefix("PRAGMA query_only") else { return }
        state.withLock { if $0.listening { $0.statements.append(sql) } }
    }

    /// Records one access while listening.
    func access() {
        state.withLock { if $0.listening { $0.accesses += 1 } }
    }

    /// The statements `body` ran, and how many times it awaited the database.
    func during(_ body: () async throws -> Void) async rethrows -> (statements: [String], accesses: Int) {
        state.withLock { $0 = (true, [], 0) }
        try await body()
        return state.withLock { state in
            state.listening = false
            return (state.statements, state.accesses)
        }
    }
}

@Suite("A ballot's round trips")
struct BallotRoundTripTests {
    /// The statements of the ballot that completes a decision of `members` people (all but one voted already), counted
    /// from the service call to its return, BEGIN and COMMIT included.
    static func finalBallot(members: Int) async throws -> (statements: [String], accesses: Int) {
        let log = StatementLog()
        let database = try PlacesDatabase.inMemory(statements: { log.record($0) }, accesses: { log.access() })
        let (app, _, _, decisions) = try await TestApp.togetherServices(Lisbon.places, database: database)
        return try await app.test(.router) { client in
            let crew = try await client.crew("Table", admin: "admin", members: (1..<members).map { "voter\($0)" })
            let body: [String: Any] = ["groupId": crew.id, "method": "tiered", "candidates": ["placeIds": Lisbon.places.map(\.id)]]
            let id = try #require(try await client.object(.post, "/v1/decisions", token: crew.admin, body: body, expect: .created)["id"] as? String)
            for voter in crew.members {
                _ = try await client.object(.put, "/v1/decisions/\(id)/ballot", token: crew.token(voter), body: ["ranking": ["lx-a-tasca"]])
            }
            let caller = try #require(try await database.accounts.user(login: .username("admin")))
            let ballot = CastBallot(ranking: ["lx-b-miradouro"])
            return try await log.during {
                let view = try await decisions.vote(caller, id: id, ballot)
                #expect(view.status == .completed)
                #expect(view.participants.count == members)
            }
        }
    }

    @Test func theFinalBallotRunsAsManyStatementsForFiftyAsForFive() async throws {
        let five = try await Self.finalBallot(members: 5)
        let fifty = try await Self.finalBallot(members: 50)
        let listing = fifty.statements.joined(separator: "\n")
        // One read of the decision with its participants, ballots and everyone the answer names, one of what the
        // participants want to hear of the result, and one transaction writing the decision, the ballot and the
        // notifications (before this shape: 68 statements for five and 113 for fifty).
        #expect(fifty.statements.count == five.statements.count, "\(listing)")
        #expect(fifty.statements.count <= 8, "\(fifty.statements.count) statements:\n\(listing)")
        #expect(fifty.accesses <= 3, "\(fifty.accesses) accesses:\n\(listing)")
    }

    /// A ballot over HTTP that leaves others to vote awaits the database three times, whatever the group's size: the
    /// caller's session with their account, the decision with everything its answer shows, and the save.
    @Test func aBallotRequestSignsInReadsOnceAndWritesOnce() async throws {
        let log = StatementLog()
        let database = try PlacesDatabase.inMemory(statements: { log.record($0) }, accesses: { log.access() })
        let (app, _, _, _) = try await TestApp.togetherServices(Lisbon.places, database: database)
        try await app.test(.router) { client in
            let crew = try await client.crew("Table", admin: "admin", members: (1..<20).map { "voter\($0)" })
            let body: [String: Any] = ["groupId": crew.id, "method": "tiered", "candidates": ["placeIds": Lisbon.places.map(\.id)]]
            let id = try #require(try await client.object(.post, "/v1/decisions", token: crew.admin, body: body, expect: .created)["id"] as? String)
            let ballot = try await log.during {
                let view = try await client.object(.put, "/v1/decisions/\(id)/ballot", token: crew.voter1, body: ["ranking": ["lx-a-tasca"]])
                #expect((view["participants"] as? [Any])?.count == 20)
            }
            #expect(ballot.accesses == 3, "\(ballot.accesses) accesses:\n\(ballot.statements.joined(separator: "\n"))")
        }
    }

    /// Two last ballots saved at once leave the completion to the second one's follow-up; if the process died between
    /// them, reads show the decision as stored (they never write), and the server's background task completes it.
    @Test func aDecisionEveryoneVotedInIsCompletedByTheBackgroundTask() async throws {
        let database = try PlacesDatabase.inMemory()
        let (app, _, _, decisions) = try await TestApp.togetherServices(Lisbon.places, database: database)
        try await app.test(.router) { client in
            let crew = try await client.crew("Table", admin: "admin", members: ["voter"])
            let body: [String: Any] = ["groupId": crew.id, "method": "tiered", "candidates": ["placeIds": Lisbon.places.map(\.id)]]
            let id = try #require(try await client.object(.post, "/v1/decisions", token: crew.admin, body: body, expect: .created)["id"] as? String)
            // Both ballots stored as two saves of ballots alone would leave them, without the completion that follows.
            let read = try #require(try await database.decisions.state(decisionID: id))
            var voted = read
            voted.ballots = read.decision.participants.map { Ballot(userId: $0, ranking: ["lx-a-tasca"], castAt: TestApp.now, updatedAt: TestApp.now) }
            let saved = try #require(try await database.decisions.save(voted, replacing: read))
            #expect(saved.voters == Set(read.decision.participants))
            let before = try await client.object(.get, "/v1/decisions/\(id)", token: crew.voter)
            #expect(before["status"] as? String == "active", "a read writes nothing")
            #expect(try await database.decisions.state(decisionID: id)?.version == saved.version)
            #expect(try await decisions.settleDue() == 1)
            let view = try await client.object(.get, "/v1/decisions/\(id)", token: crew.voter)
            #expect(view["status"] as? String == "completed")
            #expect((view["result"] as? [String: Any])?["endedBy"] as? String == "allVoted")
            #expect((view["result"] as? [String: Any])?["winner"] as? String == "lx-a-tasca")
            let listed = try await client.object(.get, "/v1/decisions", token: crew.admin)
            #expect((listed["items"] as? [[String: Any]])?.first?["status"] as? String == "completed")
            #expect(try await decisions.settleDue() == 0, "nothing is due once it is settled")
        }
    }
}
