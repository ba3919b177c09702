import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import PlacesSQLite
import Synchronization
import Testing

/// SQL statements a test hears, counted while it listens.
final class StatementLog: Sendable {
    private let state = Mutex<(listening: Bool, statements: [String])>((false, []))

    /// Records a statement while listening. GRDB's own `PRAGMA query_only` around each read of an in-memory queue is left
    /// out: a file's pool of readers, and a network engine, have no such statements.
    func record(_ sql: String) {
        guard !sql.hasPrefix("PRAGMA query_only") else { return }
        state.withLock { if $0.listening { $0.statements.append(sql) } }
    }

    /// The statements `body` ran.
    func during(_ body: () async throws -> Void) async rethrows -> [String] {
        state.withLock { $0 = (true, []) }
        try await body()
        return state.withLock { state in
            state.listening = false
            return state.statements
        }
    }
}

@Suite("A ballot's round trips")
struct BallotRoundTripTests {
    /// The statements of the ballot that completes a decision of `members` people (all but one voted already), counted
    /// from the service call to its return, BEGIN and COMMIT included.
    static func finalBallot(members: Int) async throws -> [String] {
        let log = StatementLog()
        let database = try PlacesDatabase.inMemory(statements: { log.record($0) })
        let (app, _, _, decisions) = try await TestApp.togetherServices(Lisbon.places, database: database)
        return try await app.test(.router) { client in
            let admin = try await client.signUp("admin")
            var voters: [(username: String, token: String)] = []
            for index in 1..<members { voters.append(("voter\(index)", try await client.signUp("voter\(index)"))) }
            let group = try await client.group("Table", admin: admin, members: voters)
            let body: [String: Any] = ["groupId": group, "method": "tiered", "candidates": ["placeIds": Lisbon.places.map(\.id)]]
            let id = try #require(try await client.object(.post, "/v1/decisions", token: admin, body: body, expect: .created)["id"] as? String)
            for voter in voters {
                _ = try await client.object(.put, "/v1/decisions/\(id)/ballot", token: voter.token, body: ["ranking": ["lx-a-tasca"]])
            }
            let caller = try #require(try await database.accounts.user(login: .username("admin")))
            let ballot = try FieldReader(.object(["ranking": .list([.text("lx-b-miradouro")])]), allowed: DecisionService.ballotFields)
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
        // Users and their settings are read, and the result's notifications written, by a list of ids in one statement
        // each: the count does not grow with the group (before, it did: 68 statements for five and 113 for fifty, GRDB's
        // query_only pragmas counted too; 27 for either now, without them).
        #expect(fifty.count == five.count, "\(fifty.joined(separator: "\n"))")
        // Where it stands today. The target is 8 statements in at most 3 transactions: the decision is still read before
        // its transaction (the deadline check, whose read the access check reuses) and again in it, its group is read for
        // the access check, and the first try of the final ballot rolls back to read the audience.
        #expect(fifty.count <= 27, "\(fifty.count) statements:\n\(fifty.joined(separator: "\n"))")
        #expect(fifty.filter { $0.hasPrefix("BEGIN") }.count <= 6)
    }
}
