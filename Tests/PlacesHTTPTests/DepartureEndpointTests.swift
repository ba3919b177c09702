import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import Testing

@Suite("Members who leave a group leave its open decisions")
struct DepartureEndpointTests {
    @Test func aRemovedMemberNoLongerVotesReadsOrCountsAndTheRestFinishTheDecision() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let crew = try await client.crew("Crew", admin: "ana", members: ["ben", "cyd", "dee"])
            let candidates = ["placeIds": ["lx-a-tasca", "lx-b-miradouro", "lx-c-cantina"]]
            let started = try await client.object(
                .post,
                "/v1/decisions",
                token: crew.ana,
                body: ["groupId": crew.id, "method": "tiered", "candidates": candidates],
                expect: .created
            )
            let id = try #require(started["id"] as? String)
            // Ben votes for the miradouro, then is removed: his ballot must not decide anything.
            _ = try await client.object(.put, "/v1/decisions/\(id)/ballot", token: crew.ben, body: ["ranking": ["lx-b-miradouro"]])
            #expect(try await client.json(.delete, "/v1/groups/\(crew.id)/members/ben", token: crew.ana).status == .noContent)

            let seen = try await client.object(.get, "/v1/decisions/\(id)", token: crew.ana)
            #expect(Set(seen["waitingFor"] as? [String] ?? []) == ["ana", "cyd", "dee"])
            #expect(seen["ballotCount"] as? Int == 0)
            let departed = try #require(seen["departed"] as? [[String: Any]])
            #expect(departed.count == 1)
            #expect((departed.first?["user"] as? [String: Any])?["username"] as? String == "ben")
            #expect(departed.first?["ballotWithdrawn"] as? Bool == true)
            #expect(!((seen["participants"] as? [[String: Any]]) ?? []).contains { ($0["user"] as? [String: Any])?["username"] as? String == "ben" })
            // Ben can neither vote, nor read the decision or its recount, nor find it in his list.
            let vote = try await client.json(.put, "/v1/decisions/\(id)/ballot", token: crew.ben, body: ["ranking": ["lx-b-miradouro"]])
            #expect(vote.status == .forbidden)
            #expect(try await client.json(.get, "/v1/decisions/\(id)", token: crew.ben).status == .forbidden)
            #expect(try await client.json(.get, "/v1/decisions/\(id)/recount", token: crew.ben).status == .forbidden)
            let bensList = try await client.object(.get, "/v1/decisions", token: crew.ben)
            #expect((bensList["items"] as? [Any])?.isEmpty == true)

            // Ana and Cyd vote; Dee, who never voted, leaves: everyone who remains has voted, so it completes.
            _ = try await client.object(.put, "/v1/decisions/\(id)/ballot", token: crew.ana, body: ["ranking": ["lx-a-tasca"]])
            _ = try await client.object(.put, "/v1/decisions/\(id)/ballot", token: crew.cyd, body: ["ranking": ["lx-c-cantina", "lx-a-tasca"]])
            #expect(try await client.json(.post, "/v1/groups/\(crew.id)/leave", token: crew.dee, body: [:]).status == .noContent)
            let done = try await client.object(.get, "/v1/decisions/\(id)", token: crew.ana)
            #expect(done["status"] as? String == "completed")
            let result = try #require(done["result"] as? [String: Any])
            #expect(result["winner"] as? String == "lx-a-tasca")
            #expect(done["ballotCount"] as? Int == 2)
            let withdrawn = (done["departed"] as? [[String: Any]] ?? []).map { $0["ballotWithdrawn"] as? Bool }
            #expect(withdrawn == [true, false])
            #expect(try await client.notifications(crew.cyd, kind: "decisionCompleted").count == 1)
            #expect(try await client.notifications(crew.dee, kind: "decisionCompleted").isEmpty)

            // A completed decision keeps its ballots as they were when a voter leaves later.
            #expect(try await client.json(.delete, "/v1/groups/\(crew.id)/members/cyd", token: crew.ana).status == .noContent)
            let after = try await client.object(.get, "/v1/decisions/\(id)", token: crew.ana)
            #expect(after["ballotCount"] as? Int == 2)
            #expect((after["departed"] as? [Any])?.count == 2)
            #expect(try await client.object(.get, "/v1/decisions/\(id)/recount", token: crew.ana)["agrees"] as? Bool == true)
        }
    }
}
