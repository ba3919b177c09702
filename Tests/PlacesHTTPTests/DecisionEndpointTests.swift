import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import Synchronization
import Testing

@Suite("Group decisions over HTTP")
struct DecisionEndpointTests {
    /// How many ballots of a result's pairwise table prefer `a` to `b`.
    static func votes(_ result: [String: Any], for a: String, against b: String) -> Int? {
        (result["pairwise"] as? [[String: Any]])?.first { $0["for"] as? String == a && $0["against"] as? String == b }?["votes"] as? Int
    }

    @Test func aThreePersonGroupSettlesATieredDecision() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let crew = try await client.crew("Friday crew", admin: "ana", members: ["ben", "cyd"])
            #expect(try await client.notifications(crew.ben, kind: "groupInvitation").count == 1)

            // A group collection: the admin and a member both add places; the order is theirs.
            let collection = try await client.object(
                .post,
                "/v1/collections",
                token: crew.ana,
                body: ["name": "Dinner", "groupId": crew.id],
                expect: .created
            )
            let collectionID = try #require(collection["id"] as? String)
            for place in ["lx-c-cantina", "lx-a-tasca"] {
                _ = try await client.object(.post, "/v1/collections/\(collectionID)/places", token: crew.ana, body: ["placeId": place])
            }
            let added = try await client.object(
                .post,
                "/v1/collections/\(collectionID)/places",
                token: crew.ben,
                body: ["placeId": "lx-b-miradouro", "position": 0]
            )
            let order = (added["places"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(order == ["lx-b-miradouro", "lx-c-cantina", "lx-a-tasca"])

            let started = try await client.object(
                .post,
                "/v1/decisions",
                token: crew.ana,
                body: ["groupId": crew.id, "method": "tiered", "title": "Friday dinner", "candidates": ["collectionId": collectionID]],
                expect: .created
            )
            let id = try #require(started["id"] as? String)
            #expect(started["status"] as? String == "active")
            #expect(started["seed"] == nil, "the seed stays hidden until the end")
            #expect(Set(started["waitingFor"] as? [String] ?? []) == ["ana", "ben", "cyd"])
            #expect(try await client.notifications(crew.cyd, kind: "decisionStarted").count == 1)
            #expect(try await client.notifications(crew.ana, kind: "decisionStarted").isEmpty, "the starter is not told")

            // Ana votes and sees the count so far; Ben, who has not voted, sees none.
            let afterAna = try await client.object(
                .put,
                "/v1/decisions/\(id)/ballot",
                token: crew.ana,
                body: ["ranking": ["lx-a-tasca", "lx-c-cantina"]]
            )
            #expect(afterAna["tallyVisible"] as? Bool == true)
            #expect((afterAna["provisional"] as? [String: Any])?["winner"] as? String == "lx-a-tasca")
            let benSees = try await client.object(.get, "/v1/decisions/\(id)", token: crew.ben)
            #expect(benSees["tallyVisible"] as? Bool == false)
            #expect(benSees["provisional"] == nil && benSees["result"] == nil)
            #expect(Set(benSees["waitingFor"] as? [String] ?? []) == ["ben", "cyd"])

            // A ballot naming a place that is not a candidate, or a place twice, is refused.
            let unknown = try await client.json(.put, "/v1/decisions/\(id)/ballot", token: crew.ben, body: ["ranking": ["lx-d-jardim"]])
            #expect(unknown.status == .badRequest)
            let twice = try await client.json(.put, "/v1/decisions/\(id)/ballot", token: crew.ben, body: ["ranking": ["lx-a-tasca", "lx-a-tasca"]])
            #expect(twice.status == .badRequest)

            // Ben changes his mind once; Cy's ballot is the last and completes the decision.
            _ = try await client.object(.put, "/v1/decisions/\(id)/ballot", token: crew.ben, body: ["ranking": ["lx-b-miradouro"]])
            _ = try await client.object(.put, "/v1/decisions/\(id)/ballot", token: crew.ben, body: ["ranking": ["lx-c-cantina", "lx-a-tasca"]])
            let done = try await client.object(
                .put,
                "/v1/decisions/\(id)/ballot",
                token: crew.cyd,
                body: ["ranking": ["lx-a-tasca", "lx-b-miradouro"]]
            )
            #expect(done["status"] as? String == "completed")
            let result = try #require(done["result"] as? [String: Any])
            // Tasca beats Cantina 2–1 and Miradouro 3–0: it beats every other head-to-head.
            #expect(result["winner"] as? String == "lx-a-tasca")
            #expect(result["ranking"] as? [String] == ["lx-a-tasca", "lx-c-cantina", "lx-b-miradouro"])
            #expect(result["tieBreak"] as? String == "none")
            #expect(result["endedBy"] as? String == "allVoted")
            #expect(Self.votes(result, for: "lx-a-tasca", against: "lx-c-cantina") == 2)
            #expect((result["reasoning"] as? String)?.isEmpty == false)
            #expect(done["seed"] as? String == result["seed"] as? String)

            let recount = try await client.object(.get, "/v1/decisions/\(id)/recount", token: crew.ben)
            #expect(recount["agrees"] as? Bool == true)
            let late = try await client.json(.put, "/v1/decisions/\(id)/ballot", token: crew.ana, body: ["ranking": ["lx-b-miradouro"]])
            #expect(late.status == .conflict)
            for token in [crew.ana, crew.ben, crew.cyd] {
                #expect(try await client.notifications(token, kind: "decisionCompleted").count == 1)
            }
        }
    }

    @Test func aRandomDrawCanBeRerunByHandFromItsSeed() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let solo = try await client.signUp("solo")
            let ids = Lisbon.places.map(\.id)
            for seed: UInt64 in [0, 1, 42, 18_446_744_073_709_551_615] {
                let drawn = try await client.object(
                    .post,
                    "/v1/decisions",
                    token: solo,
                    body: ["method": "random", "seed": String(seed), "candidates": ["placeIds": Array(ids.reversed())]],
                    expect: .created
                )
                #expect(drawn["status"] as? String == "completed")
                let result = try #require(drawn["result"] as? [String: Any])
                #expect(result["seed"] as? String == String(seed))
                #expect(result["winner"] as? String == HandDraw.winner(seed: seed, weights: ids.map { ($0, 1) }))
                let recount = try await client.object(.get, "/v1/decisions/\(try #require(drawn["id"] as? String))/recount", token: solo)
                #expect(recount["agrees"] as? Bool == true)
            }
            // Without a seed the server picks one and stores it.
            let unseeded = try await client.object(.post, "/v1/decisions", token: solo, body: ["method": "random", "candidates": ["placeIds": ids]], expect: .created)
            #expect(UInt64(unseeded["seed"] as? String ?? "") != nil)
            // Excluding the recent winners leaves the others.
            let winner = try #require((unseeded["result"] as? [String: Any])?["winner"] as? String)
            let other = try #require(ids.first { $0 != winner })
            let again = try await client.object(
                .post,
                "/v1/decisions",
                token: solo,
                body: ["method": "random", "excludeRecentDays": 7, "candidates": ["placeIds": [winner, other]]],
                expect: .created
            )
            #expect((again["candidates"] as? [[String: Any]])?.compactMap { $0["placeId"] as? String } == [other])
            let nothingLeft = try await client.json(
                .post,
                "/v1/decisions",
                token: solo,
                body: ["method": "random", "excludeRecentDays": 7, "candidates": ["placeIds": [winner, other]]]
            )
            #expect(nothingLeft.status == .conflict)
        }
    }

    @Test func deadlinesPassWhileTheServerRuns() async throws {
        let now = Mutex(TestApp.now)
        let (app, _, _, decisions) = try await TestApp.togetherServices(Lisbon.places, clock: { now.withLock { $0 } })
        try await app.test(.router) { client in
            let crew = try await client.crew("Crew", admin: "ana", members: ["ben"])
            let deadline = ISO8601DateFormatter().string(from: TestApp.now.addingTimeInterval(3 * 3600))
            let body: [String: Any] = [
                "groupId": crew.id, "method": "tiered", "deadline": deadline, "candidates": ["placeIds": ["lx-a-tasca", "lx-c-cantina"]]
            ]
            let voted = try #require(try await client.object(.post, "/v1/decisions", token: crew.ana, body: body, expect: .created)["id"] as? String)
            let silent = try #require(try await client.object(.post, "/v1/decisions", token: crew.ana, body: body, expect: .created)["id"] as? String)
            _ = try await client.object(.put, "/v1/decisions/\(voted)/ballot", token: crew.ana, body: ["ranking": ["lx-c-cantina"]])

            // Forty minutes before the deadline the background task reminds those who have not voted, once.
            now.withLock { $0 = TestApp.now.addingTimeInterval(3 * 3600 - 40 * 60) }
            try await decisions.settleDue()
            try await decisions.settleDue()
            #expect(try await client.notifications(crew.ben, kind: "decisionReminder").count == 2)
            #expect(try await client.notifications(crew.ana, kind: "decisionReminder").count == 1, "ana voted in one of them")

            // Past the deadline: the one with a ballot completes, the other expires; ballots are refused after.
            now.withLock { $0 = TestApp.now.addingTimeInterval(3 * 3600 + 1) }
            #expect(try await decisions.settleDue() == 2)
            let counted = try await client.object(.get, "/v1/decisions/\(voted)", token: crew.ben)
            #expect(counted["status"] as? String == "completed")
            #expect((counted["result"] as? [String: Any])?["endedBy"] as? String == "deadline")
            #expect((counted["result"] as? [String: Any])?["winner"] as? String == "lx-c-cantina")
            #expect(try await client.object(.get, "/v1/decisions/\(silent)", token: crew.ben)["status"] as? String == "expired")
            #expect(
                try await client.json(.put, "/v1/decisions/\(silent)/ballot", token: crew.ben, body: ["ranking": ["lx-a-tasca"]]).status == .conflict
            )
        }
    }

    @Test func fiftyParticipantsVotingAtOnceLoseNoBallotAndMakeOneResult() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let crew = try await client.crew("Big table", admin: "admin", members: (0..<49).map { "voter\($0)" })
            let everyone = ["admin"] + crew.members
            let id = try #require(
                try await client.object(
                    .post,
                    "/v1/decisions",
                    token: crew.admin,
                    body: ["groupId": crew.id, "method": "tiered", "candidates": ["placeIds": Lisbon.places.map(\.id)]],
                    expect: .created
                )["id"] as? String
            )
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { tasks in
                for (index, voter) in everyone.enumerated() {
                    let ranking = index % 3 == 0 ? ["lx-b-miradouro", "lx-a-tasca"] : ["lx-a-tasca", "lx-b-miradouro"]
                    let token = crew.token(voter)
                    tasks.addTask { try await client.json(.put, "/v1/decisions/\(id)/ballot", token: token, body: ["ranking": ranking]).status }
                }
                return try await tasks.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count == 50 && statuses.allSatisfy { $0 == .ok })
            let decision = try await client.object(.get, "/v1/decisions/\(id)", token: crew.admin)
            #expect(decision["status"] as? String == "completed")
            #expect(decision["ballotCount"] as? Int == 50)
            let result = try #require(decision["result"] as? [String: Any])
            #expect(result["ballotCount"] as? Int == 50)
            #expect(result["winner"] as? String == "lx-a-tasca")
            #expect(Self.votes(result, for: "lx-a-tasca", against: "lx-b-miradouro") == 33)
            // Exactly one result: one completion notice each.
            for voter in everyone.prefix(5) {
                #expect(try await client.notifications(crew.token(voter), kind: "decisionCompleted").count == 1)
            }
        }
    }

    @Test func adminsCloseCancelAndPick() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let crew = try await client.crew("Crew", admin: "ana", members: ["ben"])
            func start(_ method: String, _ extra: [String: Any] = [:]) async throws -> String {
                var body: [String: Any] = ["groupId": crew.id, "method": method, "candidates": ["placeIds": ["lx-a-tasca", "lx-c-cantina"]]]
                body.merge(extra) { $1 }
                return try #require(try await client.object(.post, "/v1/decisions", token: crew.ana, body: body, expect: .created)["id"] as? String)
            }
            let tiered = try await start("tiered")
            #expect(try await client.json(.post, "/v1/decisions/\(tiered)/close", token: crew.ana).status == .conflict, "nothing to count yet")
            _ = try await client.object(.put, "/v1/decisions/\(tiered)/ballot", token: crew.ben, body: ["ranking": ["lx-c-cantina"]])
            #expect(try await client.json(.post, "/v1/decisions/\(tiered)/close", token: crew.ben).status == .forbidden)
            let closed = try await client.object(.post, "/v1/decisions/\(tiered)/close", token: crew.ana)
            #expect((closed["result"] as? [String: Any])?["endedBy"] as? String == "adminClosed")

            let scheduled = try await start("random", ["scheduled": true, "seed": 7])
            #expect(try await client.object(.get, "/v1/decisions/\(scheduled)", token: crew.ben)["status"] as? String == "active")
            let drawn = try await client.object(.post, "/v1/decisions/\(scheduled)/close", token: crew.ana)
            #expect((drawn["result"] as? [String: Any])?["winner"] as? String
                == HandDraw.winner(seed: 7, weights: [("lx-a-tasca", 1), ("lx-c-cantina", 1)]))

            let manual = try await start("manual")
            #expect(
                try await client.json(.post, "/v1/decisions/\(manual)/pick", token: crew.ana, body: ["placeId": "lx-d-jardim"]).status == .badRequest
            )
            let picked = try await client.object(.post, "/v1/decisions/\(manual)/pick", token: crew.ana, body: ["placeId": "lx-c-cantina"])
            #expect((picked["result"] as? [String: Any])?["winner"] as? String == "lx-c-cantina")

            let cancelled = try await client.object(.post, "/v1/decisions/\(try await start("tiered"))/cancel", token: crew.ana)
            #expect(cancelled["status"] as? String == "closed")
            #expect(cancelled["result"] == nil)
        }
    }
}
