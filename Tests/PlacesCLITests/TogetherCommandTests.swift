import Foundation
import Testing

@Suite("places friend, group, collection, decision and notifications")
struct TogetherCommandTests {
    /// The binary on a new database of `engine`, with the users ana and ben.
    static func withAnaAndBen(_ engine: CommandEngine) async throws -> PlacesBinary {
        let places = try await PlacesBinary(engine)
        for name in ["ana", "ben"] {
            _ = try places.json(["user", "create", "--username", name, "--email", "\(name)@example.com"], input: "a long password\n")
        }
        return places
    }

    @Test(arguments: CommandEngine.available)
    func aGroupDecidesOnTheDatabase(_ engine: CommandEngine) async throws {
        let places = try await Self.withAnaAndBen(engine)
        defer { try? FileManager.default.removeItem(at: places.folder) }
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

    /// Candidates fair to the two of them from their shared locations, open when they mean to go.
    @Test(arguments: CommandEngine.available)
    func aDecisionMeetsInTheMiddleAtAVisitTime(_ engine: CommandEngine) async throws {
        let places = try await Self.withAnaAndBen(engine)
        defer { try? FileManager.default.removeItem(at: places.folder) }
        var ids: [String: String] = [:]
        for (name, hours) in [("Late", #"{"fri":["18:00-23:30"]}"#), ("Lunch", #"{"fri":["11:00-15:00"]}"#)] {
            let place = try places.json([
                "place", "add", "--name", name, "--lat", "48.85", "--lon", "2.35", "--kind", "restaurant", "--opening-hours", hours,
                "--time-zone", "Europe/Paris",
            ])
            ids[name] = try #require(place["id"] as? String)
        }
        for (name, location) in [("ana", "48.84,2.34"), ("ben", "48.86,2.36")] {
            let set = try places.run(["settings", "set", name, "--default-location", location, "--share-location-for-meet", "true"])
            #expect(set.status == 0, "\(set.err)")
        }
        _ = try places.json(["friend", "request", "ben", "--as", "ana"])
        _ = try places.json(["friend", "accept", "ana", "--as", "ben"])
        let started = try places.json([
            "decision", "start", "--method", "tiered", "--participant", "ana", "--participant", "ben", "--meet", #"{"fromParticipants":true}"#,
            "--visit-at", "2030-01-04T20:00:00+01:00", "--as", "ana",
        ])
        #expect((started["candidates"] as? [[String: Any]])?.compactMap { $0["placeId"] as? String } == [try #require(ids["Late"])])
        #expect(started["visitAt"] as? String == "2030-01-04T19:00:00Z")
        let shown = try places.run(["decision", "show", try #require(started["id"] as? String), "--as", "ben"]).out
        #expect(shown.contains("candidates: Late (open then)") && shown.contains("visit: 2030-01-04T19:00:00Z"), "\(shown)")
        let both = try places.run([
            "decision", "start", "--method", "tiered", "--meet", #"{"fromParticipants":true}"#, "--visit-at", "2030-01-04T20:00:00+01:00",
            "--visit-date", "2030-01-04", "--as", "ana",
        ])
        #expect(both.status == 64 && both.err.contains("visitAt"), "\(both.err)")
    }

    /// A decision with a swipe round, driven from the command line, and the same round and ballots counted offline by
    /// `places tally`: the same survivors, winner and ranking; and its conversation, read oldest first.
    @Test(arguments: CommandEngine.available)
    func aSwipeRoundFromTheCommandLineAgreesWithTheOfflineTally(_ engine: CommandEngine) async throws {
        let places = try await Self.withAnaAndBen(engine)
        defer { try? FileManager.default.removeItem(at: places.folder) }
        var ids: [String: String] = [:]
        for (name, lon) in [("Tasca", 2.350), ("Cantina", 2.351), ("Jardim", 2.352)] {
            ids[name] = try #require(try places.json(["place", "add", "--name", name, "--lat", "48.85", "--lon", String(lon)])["id"] as? String)
        }
        let (tasca, cantina, jardim) = try (#require(ids["Tasca"]), #require(ids["Cantina"]), #require(ids["Jardim"]))
        let group = try #require(try places.json(["group", "create", "--name", "Crew", "--as", "ana"])["id"] as? String)
        _ = try places.json(["group", "invite", group, "ben", "--as", "ana"])
        _ = try places.json(["group", "answer", group, "accept", "--as", "ben"])

        let started = try places.json([
            "decision", "start", "--method", "tiered", "--group", group, "--place", tasca, "--place", cantina, "--place", jardim,
            "--swipe-vetoes", "1", "--as", "ana",
        ])
        let id = try #require(started["id"] as? String)
        #expect((started["swipe"] as? [String: Any])?["open"] as? Bool == true)
        let twoVetoes = try places.run(["decision", "swipe", id, "\(tasca)=veto", "\(cantina)=veto", "--as", "ana"])
        #expect(twoVetoes.status == 1 && twoVetoes.err.contains("conflict"), "\(twoVetoes.err)")
        #expect(try places.run(["decision", "swipe", id, "\(tasca)=maybe", "--as", "ana"]).status == 64)
        _ = try places.json(["decision", "swipe", id, "\(tasca)=yes", "\(cantina)=veto", "\(jardim)=yes", "--as", "ana"])
        let shown = try places.run(["decision", "show", id, "--as", "ana"])
        #expect(shown.out.contains("swipe round open") && shown.out.contains("answered: ana") && shown.out.contains("vetoes left: 0"), "\(shown.out)")
        let ended = try places.json(["decision", "swipe", id, "\(tasca)=yes", "\(cantina)=yes", "\(jardim)=yes", "--as", "ben"])
        #expect((ended["roundResult"] as? [String: Any])?["survivors"] as? [String] == [jardim, tasca].sorted())
        // They talk it over: the conversation reads oldest first; a blank message is bad input.
        _ = try places.json(["decision", "message", id, "Jardim or Tasca?", "--as", "ben"])
        let said = try places.run(["decision", "message", id, "Tasca, surely", "--as", "ana"])
        #expect(said.status == 0 && said.out.contains("ana: Tasca, surely"), "\(said.out)")
        #expect(try places.run(["decision", "message", id, "  ", "--as", "ana"]).status == 64)
        let conversation = try places.run(["decision", "messages", id, "--as", "ben"]).out
        let question = try #require(conversation.range(of: "ben: Jardim or Tasca?"))
        let answer = try #require(conversation.range(of: "ana: Tasca, surely"))
        #expect(question.lowerBound < answer.lowerBound, "\(conversation)")
        _ = try places.json(["decision", "vote", id, jardim, tasca, "--as", "ana"])
        let done = try places.json(["decision", "vote", id, tasca, jardim, "--as", "ben"])
        let result = try #require(done["result"] as? [String: Any])
        let seed = try #require(result["seed"] as? String)

        let file = places.folder.appendingPathComponent("round.json")
        let tally: [String: Any] = [
            "candidates": [tasca, cantina, jardim],
            "round": ["vetoes": 1, "swipes": [["yes": [tasca, jardim], "veto": [cantina]], ["yes": [tasca, cantina, jardim]]]],
            "ballots": [[jardim, tasca], [tasca, jardim]],
        ]
        try JSONSerialization.data(withJSONObject: tally).write(to: file)
        let offline = try CopyWorld.places(["tally", "--method", "tiered", file.path, "--seed", seed, "--json"])
        #expect(offline.status == 0, "\(offline.err)")
        let counted = try #require(try JSONSerialization.jsonObject(with: Data(offline.out.utf8)) as? [String: Any])
        #expect((counted["round"] as? [String: Any])?["survivors"] as? [String] == (result["round"] as? [String: Any])?["survivors"] as? [String])
        #expect((counted["result"] as? [String: Any])?["winner"] as? String == result["winner"] as? String)
        #expect((counted["result"] as? [String: Any])?["ranking"] as? [String] == result["ranking"] as? [String])
        let text = try CopyWorld.places(["tally", "--method", "tiered", file.path, "--seed", seed])
        #expect(text.out.hasPrefix("The swipe round (2 participants; 1 veto each) kept 2 of 3 candidates. Removed: \(cantina) was vetoed."), "\(text.out)")
        #expect(try places.json(["decision", "recount", id, "--as", "ben"])["agrees"] as? Bool == true)
        let late = try places.run(["decision", "message", id, "One more thing", "--as", "ben"])
        #expect(late.status == 1 && late.err.contains("ended"), "\(late.err)")
    }

    /// An admin alerts the group from the command line: members are notified, others may not send one, and the
    /// eleventh in an hour is refused, saying when to try again.
    @Test(arguments: CommandEngine.available)
    func anAdminAlertsTheGroup(_ engine: CommandEngine) async throws {
        let places = try await Self.withAnaAndBen(engine)
        defer { try? FileManager.default.removeItem(at: places.folder) }
        let group = try #require(try places.json(["group", "create", "--name", "Crew", "--as", "ana"])["id"] as? String)
        _ = try places.json(["group", "invite", group, "ben", "--as", "ana"])
        _ = try places.json(["group", "answer", group, "accept", "--as", "ben"])

        let member = try places.run(["group", "alert", group, "Party at mine", "--as", "ben"])
        #expect(member.status == 1 && member.err.contains("forbidden"), "\(member.err)")
        #expect(try places.run(["group", "alert", group, "  ", "--as", "ana"]).status == 64)
        let sent = try places.run(["group", "alert", group, "Doors at eight", "--as", "ana"])
        #expect(sent.status == 0 && sent.out.contains("alert sent"), "\(sent.err)")
        let notices = try #require(try places.json(["notifications", "list", "--as", "ben"])["items"] as? [[String: Any]])
        #expect(notices.contains { $0["kind"] as? String == "adminAlert" && $0["message"] as? String == "ana, admin of Crew: Doors at eight" })

        for index in 2...10 { _ = try places.json(["group", "alert", group, "Alert \(index)", "--as", "ana"]) }
        let eleventh = try places.run(["group", "alert", group, "One too many", "--as", "ana"])
        #expect(eleventh.status == 1 && eleventh.err.contains("too_many_attempts") && eleventh.err.contains("seconds"), "\(eleventh.err)")
    }
}
