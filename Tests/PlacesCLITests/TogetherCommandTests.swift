import Foundation
import Testing

@Suite("places friend, group, collection, decision and notifications")
struct TogetherCommandTests {
    @Test(arguments: CommandEngine.available)
    func aGroupDecidesOnTheDatabase(_ engine: CommandEngine) async throws {
        let places = try await PlacesBinary(engine)
        defer { try? FileManager.default.removeItem(at: places.folder) }
        for name in ["ana", "ben"] {
            _ = try places.json(["user", "create", "--username", name, "--email", "\(name)@example.com"], input: "a long password\n")
        }
        var placeIDs: [String] = []
        for (name, lon) in [("Tasca", 2.350), ("Cantina", 2.351)] {
            let place = try places.json(["place", "add", "--name", name, "--lat", "48.85", "--lon", String(lon), "--kind", "restaurant"])
            placeIDs.append(try #require(place["id"] as? String))
        }

        let group = try places.json(["group", "create", "--name", "Crew", "--as", "ana"])
        let groupID = try #require(group["id"] as? String)
        #expect(try places.run(["group", "invite", groupID, "ben", "--as", "ben"]).status == 1, "only admins invite")
        _ = try places.json(["group", "invite", groupID, "ben", "--as", "ana"])
        let notices = try places.json(["notifications", "list", "--as", "ben"])
        #expect(notices["unreadCount"] as? Int == 1)
        let joined = try places.json(["group", "answer", groupID, "accept", "--as", "ben"])
        #expect((joined["members"] as? [Any])?.count == 2)

        let collection = try places.json(["collection", "create", "--name", "Dinner", "--group", groupID, "--as", "ana"])
        let collectionID = try #require(collection["id"] as? String)
        for id in placeIDs { _ = try places.json(["collection", "add", collectionID, id, "--as", "ben"]) }
        // A place or a person named that does not exist is bad input, as an unknown id of what a command acts on is.
        for unknown in [["collection", "add", collectionID, "nowhere", "--as", "ben"], ["group", "invite", groupID, "nobody", "--as", "ana"]] {
            let refused = try places.run(unknown)
            #expect(refused.status == 64, "\(unknown)")
            #expect(refused.err.contains("unknown_reference"), "\(unknown): \(refused.err)")
        }

        let started = try places.json([
            "decision", "start", "--method", "tiered", "--group", groupID, "--collection", collectionID, "--as", "ana",
        ])
        let decisionID = try #require(started["id"] as? String)
        let bad = try places.run(["decision", "vote", decisionID, "nowhere", "--as", "ben"])
        #expect(bad.status == 64)
        #expect(bad.err.contains("invalid_input"))
        _ = try places.json(["decision", "vote", decisionID, placeIDs[1], "--as", "ana"])
        let done = try places.json(["decision", "vote", decisionID, placeIDs[1], placeIDs[0], "--as", "ben"])
        #expect(done["status"] as? String == "completed")
        #expect((done["result"] as? [String: Any])?["winner"] as? String == placeIDs[1])
        #expect(try places.json(["decision", "recount", decisionID, "--as", "ben"])["agrees"] as? Bool == true)

        let text = try places.run(["decision", "show", decisionID, "--as", "ana"])
        #expect(text.status == 0)
        #expect(text.out.contains("winner: Cantina"))
    }
}
