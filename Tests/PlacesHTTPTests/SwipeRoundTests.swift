import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import Synchronization
import Testing

/// A decision's swipe round over HTTP: private answers, a veto that removes a place without saying whose it was, the
/// method on the survivors, and nothing surviving.
@Suite("Swipe rounds over HTTP")
struct SwipeRoundTests {
    static let everyPlace = Lisbon.places.map(\.id)

    /// The answers of `token`'s caller to every candidate but those given otherwise.
    static func answers(_ given: [String: String], rest: String = "yes") -> [String: Any] {
        ["answers": everyPlace.map { ["placeId": $0, "answer": given[$0] ?? rest] }]
    }

    @Test func fourFriendsSwipeThenVoteOnTheSurvivors() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let crew = try await client.crew("Four", admin: "ana", members: ["ben", "cyd", "dee"])
            let started = try await client.object(
                .post,
                "/v1/decisions",
                token: crew.ana,
                body: ["groupId": crew.id, "method": "tiered", "swipe": ["vetoes": 1, "minYes": 2], "candidates": ["placeIds": Self.everyPlace]],
                expect: .created
            )
            let id = try #require(started["id"] as? String)
            let round = try #require(started["swipe"] as? [String: Any])
            #expect(round["open"] as? Bool == true && round["vetoes"] as? Int == 1 && round["minYes"] as? Int == 2)
            #expect(round["vetoesLeft"] as? Int == 1 && (round["mySwipes"] as? [String: Any])?.isEmpty == true)
            #expect(Set(started["waitingFor"] as? [String] ?? []) == ["ana", "ben", "cyd", "dee"])

            // No ballot while the round is open; a place that is no candidate is not found; a bad answer is named.
            #expect(try await client.json(.put, "/v1/decisions/\(id)/ballot", token: crew.ben, body: ["ranking": ["lx-a-tasca"]]).status == .conflict)
            #expect(try await client.json(.put, "/v1/decisions/\(id)/swipes/nowhere", token: crew.ben, body: ["answer": "yes"]).status == .notFound)
            let unknown = try await client.json(.put, "/v1/decisions/\(id)/swipes", token: crew.ben, body: Self.answers(["nowhere": "yes"]).merging(
                ["answers": [["placeId": "nowhere", "answer": "yes"]]], uniquingKeysWith: { _, given in given }))
            #expect(unknown.status == .badRequest && String(buffer: unknown.body).contains(#""field":"answers""#))
            let bad = try await client.json(.put, "/v1/decisions/\(id)/swipes/lx-a-tasca", token: crew.ben, body: ["answer": "maybe"])
            #expect(bad.status == .badRequest && String(buffer: bad.body).contains(#""field":"answer""#))

            // Ben answers one by one, and may change his mind; a second veto is one too many, and nothing of it is kept.
            _ = try await client.object(.put, "/v1/decisions/\(id)/swipes/lx-d-jardim", token: crew.ben, body: ["answer": "veto"])
            let second = try await client.json(.put, "/v1/decisions/\(id)/swipes", token: crew.ben, body: Self.answers(["lx-a-tasca": "veto", "lx-d-jardim": "veto"]))
            #expect(second.status == .conflict && String(buffer: second.body).contains(#""field":"answer""#))
            let benView = try await client.object(.get, "/v1/decisions/\(id)", token: crew.ben)
            #expect((benView["swipe"] as? [String: Any])?["mySwipes"] as? [String: String] == ["lx-d-jardim": "veto"], "all or nothing")
            #expect((benView["swipe"] as? [String: Any])?["vetoesLeft"] as? Int == 0)

            _ = try await client.object(.put, "/v1/decisions/\(id)/swipes", token: crew.ben, body: Self.answers(["lx-d-jardim": "veto"]))
            _ = try await client.object(.put, "/v1/decisions/\(id)/swipes", token: crew.ana, body: Self.answers(["lx-b-miradouro": "no"]))
            _ = try await client.object(.put, "/v1/decisions/\(id)/swipes", token: crew.cyd, body: Self.answers(["lx-b-miradouro": "no", "lx-c-cantina": "no"]))

            // Dee sees who is done, never what anyone answered, and no counts while the round is open.
            let deeView = try await client.json(.get, "/v1/decisions/\(id)", token: crew.dee)
            let deeText = String(buffer: deeView.body)
            let dee = try TestApp.object(deeView.body)
            #expect((dee["swipe"] as? [String: Any])?["answered"] as? [String] == ["ana", "ben", "cyd"])
            #expect((dee["swipe"] as? [String: Any])?["mySwipes"] as? [String: String] == [:])
            #expect(dee["waitingFor"] as? [String] == ["dee"])
            #expect(dee["roundResult"] == nil && !deeText.contains("\"veto\"") && !deeText.contains("\"no\""), "\(deeText)")

            // Dee's answers end the round: Jardim was vetoed, Miradouro had more no than yes.
            let ended = try await client.object(.put, "/v1/decisions/\(id)/swipes", token: crew.dee, body: Self.answers([:]))
            let result = try #require(ended["roundResult"] as? [String: Any])
            #expect(result["survivors"] as? [String] == ["lx-a-tasca", "lx-c-cantina"])
            #expect(result["endedBy"] as? String == "allAnswered")
            let counts = try #require(result["counts"] as? [[String: Any]])
            let jardim = try #require(counts.first { $0["placeId"] as? String == "lx-d-jardim" })
            #expect(jardim["veto"] as? Int == 1 && jardim["removedFor"] as? String == "vetoed")
            let miradouro = try #require(counts.first { $0["placeId"] as? String == "lx-b-miradouro" })
            #expect(miradouro["yes"] as? Int == 2 && miradouro["no"] as? Int == 2 && miradouro["removedFor"] as? String == "tooFewYes")
            #expect(String(describing: result).contains("ben") == false, "the counts name nobody")
            #expect((ended["swipe"] as? [String: Any])?["open"] as? Bool == false)
            #expect(try await client.json(.put, "/v1/decisions/\(id)/swipes/lx-a-tasca", token: crew.ana, body: ["answer": "no"]).status == .conflict)

            // The vote is on the survivors only.
            let removed = try await client.json(.put, "/v1/decisions/\(id)/ballot", token: crew.ana, body: ["ranking": ["lx-d-jardim"]])
            #expect(removed.status == .badRequest)
            for (voter, ranking) in [(crew.ana, ["lx-a-tasca"]), (crew.ben, ["lx-c-cantina"]), (crew.cyd, ["lx-a-tasca"])] {
                _ = try await client.object(.put, "/v1/decisions/\(id)/ballot", token: voter, body: ["ranking": ranking])
            }
            let done = try await client.object(.put, "/v1/decisions/\(id)/ballot", token: crew.dee, body: ["ranking": ["lx-a-tasca", "lx-c-cantina"]])
            #expect(done["status"] as? String == "completed")
            let final = try #require(done["result"] as? [String: Any])
            #expect(final["winner"] as? String == "lx-a-tasca" && final["ranking"] as? [String] == ["lx-a-tasca", "lx-c-cantina"])
            #expect((final["round"] as? [String: Any])?["survivors"] as? [String] == ["lx-a-tasca", "lx-c-cantina"])
            #expect((final["reasoning"] as? String)?.hasPrefix("The swipe round (4 participants; 1 veto each, at least 2 yes to stay) kept 2 of 4") == true)
            let recount = try await client.object(.get, "/v1/decisions/\(id)/recount", token: crew.cyd)
            #expect(recount["agrees"] as? Bool == true)
        }
    }

    @Test func nothingSurvivingEndsWithoutAWinnerAndSaysWhy() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let crew = try await client.crew("Picky", admin: "ana", members: ["ben"])
            let body: [String: Any] = [
                "groupId": crew.id, "method": "random", "title": "Lunch", "swipe": ["vetoes": 4], "candidates": ["placeIds": Self.everyPlace],
            ]
            let started = try await client.object(.post, "/v1/decisions", token: crew.ana, body: body, expect: .created)
            let id = try #require(started["id"] as? String)
            #expect(started["status"] as? String == "active", "a random decision with a round draws once the round ends")
            _ = try await client.object(.put, "/v1/decisions/\(id)/swipes", token: crew.ana, body: Self.answers(["lx-a-tasca": "veto", "lx-b-miradouro": "veto"], rest: "no"))
            let ended = try await client.object(.put, "/v1/decisions/\(id)/swipes", token: crew.ben, body: Self.answers(["lx-c-cantina": "veto"], rest: "yes"))
            #expect(ended["status"] as? String == "completed")
            let result = try #require(ended["result"] as? [String: Any])
            #expect(result["winner"] == nil && result["endedBy"] as? String == "nothingSurvived")
            #expect((result["reasoning"] as? String)?.contains("kept none of 4 candidates") == true)
            #expect((result["reasoning"] as? String)?.contains("Jardim Secreto had too few yes (1 yes, 1 no)") == true)
            let told = try await client.notifications(crew.ben, kind: "decisionCompleted")
            #expect(told.first?["message"] as? String == "“Lunch” ended without a winner: no place survived the swipe round")
            #expect(try await client.object(.get, "/v1/decisions/\(id)/recount", token: crew.ben)["agrees"] as? Bool == true)
            // Readers of recent winners pass over a decision without one.
            let again = try await client.object(
                .post,
                "/v1/decisions",
                token: crew.ana,
                body: ["groupId": crew.id, "method": "random", "excludeRecentDays": 7, "candidates": ["placeIds": Self.everyPlace]],
                expect: .created
            )
            #expect(again["status"] as? String == "completed")
        }
    }

    @Test func anAdminClosesTheRoundAndItsDeadlinePassesWithoutAReader() async throws {
        let now = Mutex(TestApp.now)
        let (app, _, _, decisions) = try await TestApp.togetherServices(Lisbon.places, clock: { now.withLock { $0 } })
        try await app.test(.router) { client in
            let crew = try await client.crew("Crew", admin: "ana", members: ["ben"])
            let at = { (seconds: Double) in ISO8601DateFormatter().string(from: TestApp.now.addingTimeInterval(seconds)) }
            func start(_ swipe: [String: Any], deadline: Double? = nil) async throws -> HTTPResponse.Status {
                var body: [String: Any] = ["groupId": crew.id, "method": "manual", "swipe": swipe, "candidates": ["placeIds": Self.everyPlace]]
                if let deadline { body["deadline"] = at(deadline) }
                return try await client.json(.post, "/v1/decisions", token: crew.ana, body: body).status
            }
            #expect(try await start(["deadline": at(-60)]) == .badRequest)
            #expect(try await start(["deadline": at(7_200)], deadline: 3_600) == .badRequest)
            #expect(try await start(["vetoes": 11]) == .badRequest)
            #expect(try await start(["minYes": 3]) == .badRequest, "two participants")
            let unknown = try await client.json(
                .post, "/v1/decisions", token: crew.ana,
                body: ["groupId": crew.id, "method": "manual", "swipe": ["veto": 1], "candidates": ["placeIds": Self.everyPlace]]
            )
            #expect(unknown.status == .badRequest && String(buffer: unknown.body).contains(#""field":"swipe.veto""#))

            // An admin's close ends the round only; the pick comes after, among the survivors.
            let body: [String: Any] = ["groupId": crew.id, "method": "manual", "swipe": [:] as [String: Any], "candidates": ["placeIds": Self.everyPlace]]
            let manual = try #require(try await client.object(.post, "/v1/decisions", token: crew.ana, body: body, expect: .created)["id"] as? String)
            _ = try await client.object(.put, "/v1/decisions/\(manual)/swipes", token: crew.ben, body: Self.answers(["lx-a-tasca": "veto"]))
            #expect(try await client.json(.post, "/v1/decisions/\(manual)/pick", token: crew.ana, body: ["placeId": "lx-b-miradouro"]).status == .conflict)
            #expect(try await client.json(.post, "/v1/decisions/\(manual)/close", token: crew.ben).status == .forbidden)
            let closed = try await client.object(.post, "/v1/decisions/\(manual)/close", token: crew.ana)
            #expect(closed["status"] as? String == "active")
            #expect((closed["roundResult"] as? [String: Any])?["endedBy"] as? String == "adminClosed")
            #expect((closed["roundResult"] as? [String: Any])?["survivors"] as? [String] == ["lx-b-miradouro", "lx-c-cantina", "lx-d-jardim"])
            #expect(try await client.json(.post, "/v1/decisions/\(manual)/pick", token: crew.ana, body: ["placeId": "lx-a-tasca"]).status == .badRequest)
            let picked = try await client.object(.post, "/v1/decisions/\(manual)/pick", token: crew.ana, body: ["placeId": "lx-c-cantina"])
            #expect((picked["result"] as? [String: Any])?["winner"] as? String == "lx-c-cantina")

            // A round's deadline passes whether or not anybody reads the decision: a place nobody answered is out.
            let timed: [String: Any] = [
                "groupId": crew.id, "method": "tiered", "swipe": ["deadline": at(600)], "candidates": ["placeIds": Self.everyPlace],
            ]
            let tiered = try #require(try await client.object(.post, "/v1/decisions", token: crew.ana, body: timed, expect: .created)["id"] as? String)
            _ = try await client.object(.put, "/v1/decisions/\(tiered)/swipes/lx-b-miradouro", token: crew.ana, body: ["answer": "yes"])
            now.withLock { $0 = TestApp.now.addingTimeInterval(601) }
            #expect(try await client.object(.get, "/v1/decisions/\(tiered)", token: crew.ben)["roundResult"] == nil, "a read writes nothing")
            #expect(try await decisions.settleDue() == 1)
            let after = try await client.object(.get, "/v1/decisions/\(tiered)", token: crew.ben)
            let round = try #require(after["roundResult"] as? [String: Any])
            #expect(round["endedBy"] as? String == "deadline" && round["survivors"] as? [String] == ["lx-b-miradouro"])
            #expect((round["counts"] as? [[String: Any]])?.first?["removedFor"] as? String == "unanswered")
        }
    }
}
