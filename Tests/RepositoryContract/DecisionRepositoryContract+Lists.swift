import Foundation
import PlacesCore
import Testing

/// What every `DecisionRepository` lists and counts.
extension DecisionRepositoryContract {
    /// Saves `id` as completed with `winner` at `seconds`.
    static func complete(_ id: String, winner: String, at seconds: Int, in store: any RepositoryStore) async throws {
        let read = try #require(try await store.decisions.state(decisionID: id))
        var completed = read
        completed.decision.status = .completed
        completed.decision.endedAt = Sample.at(seconds)
        completed.decision.result = DecisionResult(
            method: .random,
            winner: winner,
            ranking: [winner],
            tieBreak: .none,
            reasoning: "drawn",
            seed: 1,
            ballotCount: 0,
            endedBy: .draw,
            standings: []
        )
        #expect(try await store.decisions.save(completed, replacing: read) != nil)
    }

    static var listCases: [ContractCase] {
        [
            ContractCase("decisions", "decisions(visibleTo:) lists what the person takes part in, started or can see by group, newest first") {
                store in
                let (ann, bob, cy) = try await prepare(store)
                let dan = try await store.addUsers("dan")[0]
                try await store.addGroup("g-2", name: "Other", creator: dan)
                let decisions = [
                    Sample.decision("d-1", group: "g-1", by: ann, participants: [ann, bob], at: 10),
                    Sample.decision("d-2", group: nil, by: cy, participants: [cy, bob], at: 20),
                    Sample.decision("d-3", group: "g-2", by: dan, participants: [dan], at: 30),
                    Sample.decision("d-4", group: nil, by: cy, participants: [cy], at: 40),
                    Sample.decision("d-6", group: "g-1", by: cy, participants: [cy], at: 50),
                    Sample.decision("d-5", group: "g-1", by: cy, participants: [cy], at: 50),
                ]
                for decision in decisions { try await store.decisions.insert(decision, notifications: []) }
                let read = try #require(try await store.decisions.state(decisionID: "d-1"))
                var voted = read
                voted.ballots = [ballot(bob, ["p1"], at: 11)]
                #expect(try await store.decisions.save(voted, replacing: read) != nil)

                let bobs = try await allPages(limit: 1) { try await store.decisions.decisions(visibleTo: bob, groupIDs: [], page: $0) }
                #expect(bobs.map(\.decision.id) == ["d-2", "d-1"], "as a participant, newest first")
                #expect(bobs.last?.ballots == voted.ballots, "with their ballots")
                let bobsWithGroup = try await allPages(limit: 2) { try await store.decisions.decisions(visibleTo: bob, groupIDs: ["g-1"], page: $0) }
                #expect(bobsWithGroup.map(\.decision.id) == ["d-6", "d-5", "d-2", "d-1"], "same time: by id, descending")
                let cys = try await allPages(limit: 2) { try await store.decisions.decisions(visibleTo: cy, groupIDs: [], page: $0) }
                #expect(cys.map(\.decision.id) == ["d-6", "d-5", "d-4", "d-2"])
                let dans = try await store.decisions.decisions(visibleTo: dan, groupIDs: ["g-2"], page: PageRequest())
                #expect(dans.items.map(\.decision.id) == ["d-3"] && dans.nextCursor == nil)

                // A cursor holds its place when a newer decision arrives between pages.
                let first = try await store.decisions.decisions(visibleTo: bob, groupIDs: ["g-1"], page: PageRequest(limit: 2))
                try await store.decisions.insert(Sample.decision("d-7", group: "g-1", by: bob, participants: [bob], at: 60), notifications: [])
                let second = try await store.decisions.decisions(visibleTo: bob, groupIDs: ["g-1"], page: try next(first, limit: 2))
                #expect(second.items.map(\.decision.id) == ["d-2", "d-1"])
            },
            ContractCase("decisions", "active decisions by group and participant, those due by deadline soonest first, and counts of active ones") { store in
                let (ann, bob, cy) = try await prepare(store)
                let decisions = [
                    Sample.decision("d-1", group: "g-1", by: ann, participants: [ann, bob], at: 1, deadline: 300),
                    Sample.decision("d-2", group: "g-1", by: ann, participants: [ann], at: 2, deadline: 100),
                    Sample.decision("d-3", group: nil, by: ann, participants: [ann, bob], at: 3, deadline: 200),
                    Sample.decision("d-4", group: "g-1", by: bob, participants: [bob, cy], at: 4),
                    Sample.decision("d-5", group: "g-1", by: bob, participants: [bob], at: 5, deadline: 50),
                ]
                for decision in decisions { try await store.decisions.insert(decision, notifications: []) }
                try await complete("d-5", winner: "p1", at: 60, in: store)
                #expect(Set(try await store.decisions.activeDecisions(groupID: "g-1", participant: bob)) == ["d-1", "d-4"])
                #expect(try await store.decisions.activeDecisions(groupID: "g-1", participant: ann).sorted() == ["d-1", "d-2"])
                #expect(try await store.decisions.activeDecisions(groupID: "g-2", participant: ann).isEmpty)
                #expect(try await store.decisions.activeDecisions(dueBy: Sample.at(200)) == ["d-2", "d-3"], "at or before, soonest first")
                #expect(try await store.decisions.activeDecisions(dueBy: Sample.at(1_000)) == ["d-2", "d-3", "d-1"])
                #expect(try await store.decisions.activeDecisions(dueBy: Sample.at(99)).isEmpty)
                // A tiered decision without a deadline in which every participant has a ballot is found too, after those
                // with a deadline (its count's follow-up may have been interrupted); Core decides whether it is due.
                try await store.decisions.insert(Sample.decision("d-6", group: "g-1", by: bob, participants: [bob], at: 6), notifications: [])
                let read = try #require(try await store.decisions.state(decisionID: "d-6"))
                var voted = read
                voted.ballots = [ballot(bob, ["p1"], at: 7)]
                #expect(try await store.decisions.save(voted, replacing: read)?.voters == [bob])
                #expect(try await store.decisions.activeDecisions(dueBy: Sample.at(99)) == ["d-6"])
                #expect(try await store.decisions.activeDecisions(dueBy: Sample.at(200)) == ["d-2", "d-3", "d-6"])
                #expect(try await store.decisions.activeCount() == 5)
                #expect(try await store.decisions.activeCount(startedBy: ann) == 3)
                #expect(try await store.decisions.activeCount(startedBy: bob) == 2)
                #expect(try await store.decisions.activeCount(startedBy: cy) == 0)
            },
            ContractCase("decisions", "recentWinners answers the winners of the group's, or the person's own, decisions completed since") {
                store in
                let (ann, bob, _) = try await prepare(store)
                let decisions = [
                    Sample.decision("d-1", group: "g-1", by: ann, participants: [ann]),
                    Sample.decision("d-2", group: "g-1", by: bob, participants: [bob]),
                    Sample.decision("d-3", group: "g-1", by: ann, participants: [ann]),
                    Sample.decision("d-4", group: nil, by: ann, participants: [ann]),
                    Sample.decision("d-5", group: nil, by: bob, participants: [bob]),
                    Sample.decision("d-6", group: "g-1", by: ann, participants: [ann]),
                ]
                for decision in decisions { try await store.decisions.insert(decision, notifications: []) }
                try await complete("d-1", winner: "p1", at: 100, in: store)
                try await complete("d-2", winner: "p2", at: 200, in: store)
                try await complete("d-3", winner: "p3", at: 50, in: store)
                try await complete("d-4", winner: "p3", at: 200, in: store)
                try await complete("d-5", winner: "p2", at: 200, in: store)
                #expect(try await store.decisions.recentWinners(groupID: "g-1", createdBy: ann, since: Sample.at(100)) == ["p1", "p2"])
                #expect(try await store.decisions.recentWinners(groupID: "g-1", createdBy: ann, since: Sample.at(0)) == ["p1", "p2", "p3"])
                #expect(try await store.decisions.recentWinners(groupID: nil, createdBy: ann, since: Sample.at(100)) == ["p3"])
                #expect(try await store.decisions.recentWinners(groupID: nil, createdBy: bob, since: Sample.at(201)).isEmpty)
                #expect(try await store.decisions.activeCount() == 1)
            },
        ]
    }
}
