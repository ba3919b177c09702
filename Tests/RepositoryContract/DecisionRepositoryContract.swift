import Foundation
import PlacesCore
import Testing

/// What every `DecisionRepository` does: decisions stored with their notifications, read whole with a version, and
/// saved by optimistic concurrency.
enum DecisionRepositoryContract {
    /// Users ann, bob and cy, group g-1 of all three (ann its admin), places p1–p3.
    static func prepare(_ store: any RepositoryStore) async throws -> (ann: String, bob: String, cy: String) {
        let ids = try await store.addUsers("ann", "bob", "cy")
        try await store.addGroup("g-1", name: "Lunch", creator: ids[0], members: [ids[1], ids[2]])
        try await store.places.seed(["p1", "p2", "p3"].map { Sample.place($0) })
        return (ids[0], ids[1], ids[2])
    }

    static func ballot(_ userID: String, _ ranking: [String], at seconds: Int) -> Ballot {
        Ballot(userId: userID, ranking: ranking, castAt: Sample.at(seconds), updatedAt: Sample.at(seconds))
    }

    static var cases: [ContractCase] {
        [
            ContractCase(
                "decisions",
                "a decision is stored with its notifications and read whole with its people, without ballots; unknown ids read nil"
            ) {
                store in
                let (ann, bob, cy) = try await prepare(store)
                var decision = Sample.decision("d-1", group: "g-1", by: ann, participants: [cy, ann, bob], at: 10, deadline: 3_600)
                decision.visitDate = "2027-01-15"
                decision.weighted = true
                let notices = [bob, cy].map { Sample.notification("n-\($0)", to: $0, kind: .decisionStarted, at: 10) }
                try await store.decisions.insert(decision, notifications: notices)

                let state = try #require(try await store.decisions.state(decisionID: "d-1"))
                var expected = decision
                expected.participants.sort()
                #expect(state.decision == expected)
                #expect(state.decision.participants == [ann, bob, cy].sorted(), "participants by user id")
                #expect(state.ballots.isEmpty && state.formerMembers.isEmpty)
                let named = ["ann", "bob", "cy"].map { PublicUser(Sample.user($0)) }
                #expect(state.people == Dictionary(uniqueKeysWithValues: named.map { ($0.id, $0) }), "everyone it names, by id")
                #expect(try await store.decisions.state(decisionID: "d-ghost") == nil)
                #expect(try await store.notifications.notifications(recipientID: bob, page: PageRequest()).items == [notices[0]])
                #expect(try await store.notifications.notifications(recipientID: cy, page: PageRequest()).items == [notices[1]])
                #expect(try await store.notifications.unreadCount(recipientID: ann) == 0)
            },
            ContractCase("decisions", "save over the version read writes ballots, departures and notifications, and moves the version") {
                store in
                let (ann, bob, cy) = try await prepare(store)
                try await store.decisions.insert(Sample.decision("d-1", group: "g-1", by: ann, participants: [ann, bob, cy]), notifications: [])
                let read = try #require(try await store.decisions.state(decisionID: "d-1"))
                var voted = read
                voted.ballots = [ballot(ann, ["p1", "p2"], at: 1), ballot(bob, ["p2", "p1"], at: 2)]
                voted.notifications = [Sample.notification("n-1", to: cy, kind: .decisionReminder, at: 2)]
                #expect(try await store.decisions.save(voted, replacing: read) != nil)
                let afterVotes = try #require(try await store.decisions.state(decisionID: "d-1"))
                #expect(afterVotes.ballots == voted.ballots, "ballots by user id")
                #expect(afterVotes.version != read.version)
                #expect(try await store.notifications.notifications(recipientID: cy, page: PageRequest()).items.map(\.id) == ["n-1"])

                var changed = afterVotes
                changed.ballots = [ballot(ann, ["p2", "p1"], at: 1), ballot(cy, ["p1"], at: 3)]
                changed.ballots[0].updatedAt = Sample.at(4)
                changed.decision.participants.removeAll { $0 == bob }
                changed.decision.departures = [Departure(userId: bob, at: Sample.at(4), ballotWithdrawn: true)]
                changed.decision.reminderSentAt = Sample.at(4)
                #expect(try await store.decisions.save(changed, replacing: afterVotes) != nil)
                let afterChange = try #require(try await store.decisions.state(decisionID: "d-1"))
                #expect(afterChange.ballots == changed.ballots, "a changed ballot, an added one, a withdrawn one")
                #expect(Set(afterChange.decision.participants) == [ann, cy])
                #expect(afterChange.decision.departures == changed.decision.departures)
                #expect(Set(afterChange.people.keys) == [ann, bob, cy], "those who left are still named")
                #expect(afterChange.decision.reminderSentAt == Sample.at(4))
                #expect(afterChange.version != afterVotes.version && afterChange.version != read.version)

                var completed = afterChange
                completed.decision.status = .completed
                completed.decision.endedAt = Sample.at(5)
                completed.decision.result = DecisionResult(
                    method: .tiered,
                    winner: "p1",
                    ranking: ["p1", "p2"],
                    tieBreak: .none,
                    reasoning: "p1 beats p2",
                    seed: 42,
                    ballotCount: 2,
                    endedBy: .allVoted,
                    standings: [DecisionResult.Standing(placeId: "p1", borda: 3)]
                )
                #expect(try await store.decisions.save(completed, replacing: afterChange) != nil)
                let final = try #require(try await store.decisions.state(decisionID: "d-1"))
                #expect(final.decision.status == .completed && final.decision.endedAt == Sample.at(5))
                #expect(final.decision.result == completed.decision.result)
            },
            ContractCase("decisions", "save over a stale version answers false and writes nothing; a decision that is gone is not_found") { store in
                let (ann, bob, cy) = try await prepare(store)
                try await store.decisions.insert(Sample.decision("d-1", group: "g-1", by: ann, participants: [ann, bob, cy]), notifications: [])
                let read = try #require(try await store.decisions.state(decisionID: "d-1"))
                var first = read
                first.ballots = [ballot(ann, ["p1"], at: 1)]
                var second = read
                second.ballots = [ballot(bob, ["p2"], at: 2)]
                second.decision.participants.removeAll { $0 == cy }
                second.decision.status = .closed
                second.notifications = [Sample.notification("n-late", to: cy, at: 2)]
                #expect(try await store.decisions.save(first, replacing: read) != nil)
                #expect(try await store.decisions.save(second, replacing: read) == nil, "a ballot was saved since it was read")
                let stored = try #require(try await store.decisions.state(decisionID: "d-1"))
                #expect(stored.ballots == first.ballots)
                #expect(stored.decision.status == .active && Set(stored.decision.participants) == [ann, bob, cy])
                #expect(try await store.notifications.unreadCount(recipientID: cy) == 0)

                var ghost = read
                ghost.decision.id = "d-ghost"
                await expectError(.notFound) { _ = try await store.decisions.save(ghost, replacing: ghost) }
                try await store.groups.deleteGroup(id: "g-1")
                #expect(try await store.decisions.state(decisionID: "d-1") == nil, "a group's decisions go with it")
                await expectError(.notFound) { _ = try await store.decisions.save(stored, replacing: stored) }
            },
            ContractCase("decisions", "of several changes of the decision over one version, made at once, exactly one is written") { store in
                let (ann, bob, cy) = try await prepare(store)
                try await store.decisions.insert(Sample.decision("d-1", group: "g-1", by: ann, participants: [ann, bob, cy]), notifications: [])
                let read = try #require(try await store.decisions.state(decisionID: "d-1"))
                let decisions = store.decisions
                let written = try await withThrowingTaskGroup(of: String?.self) { tasks in
                    for (index, voter) in [ann, bob, cy, ann, bob, cy].enumerated() {
                        tasks.addTask {
                            var closed = read
                            closed.ballots = [ballot(voter, ["p\(index % 3 + 1)"], at: index)]
                            closed.decision.status = .closed
                            closed.decision.endedAt = Sample.at(index)
                            return try await decisions.save(closed, replacing: read) != nil ? voter + "/\(index)" : nil
                        }
                    }
                    return try await tasks.reduce(into: [String]()) { written, save in save.map { written.append($0) } }
                }
                #expect(written.count == 1, "\(written)")
                let stored = try #require(try await store.decisions.state(decisionID: "d-1"))
                #expect(stored.ballots.count == 1 && written.first?.hasPrefix(stored.ballots[0].userId) == true)
            },
            ContractCase("decisions", "answers of a swipe round saved at once are all written, and the last save finds everyone done") { store in
                let (ann, bob, cy) = try await prepare(store)
                var decision = Sample.decision("d-1", group: "g-1", by: ann, participants: [ann, bob, cy])
                decision.swipe = SwipeRule(vetoes: 1, minYes: nil, deadline: nil)
                try await store.decisions.insert(decision, notifications: [])
                let read = try #require(try await store.decisions.state(decisionID: "d-1"))
                #expect(read.decision.swipe == decision.swipe && read.decision.round == nil && read.swipes.isEmpty)
                let decisions = store.decisions
                let seen = try await withThrowingTaskGroup(of: [String: Int]?.self) { tasks in
                    for (index, voter) in [ann, bob, cy].enumerated() {
                        tasks.addTask {
                            var answered = read
                            answered.swipes = ["p1", "p2"].map { Swipe(userId: voter, placeId: $0, answer: index == 0 ? .veto : .yes, updatedAt: Sample.at(index)) }
                            answered.swipes[1].answer = .yes
                            return try await decisions.save(answered, replacing: read)?.answered
                        }
                    }
                    return try await tasks.reduce(into: [[String: Int]?]()) { all, next in all.append(next) }
                }
                #expect(seen.allSatisfy { $0 != nil }, "answers alone do not refuse each other")
                #expect(seen.filter { $0 == [ann: 2, bob: 2, cy: 2] }.count == 1, "\(seen)")
                let stored = try #require(try await store.decisions.state(decisionID: "d-1"))
                #expect(stored.swipes.count == 6 && stored.swipes.filter { $0.answer == .veto }.map(\.userId) == [ann])
                // The round's end is a change of the decision itself: over the read before those answers, it is refused.
                var ended = read
                ended.decision.round = RoundResult(survivors: [], counts: [], vetoes: 1, minYes: nil, participants: 3, reasoning: "")
                #expect(try await store.decisions.save(ended, replacing: read) == nil)
                var endedNow = stored
                endedNow.decision.round = ended.decision.round
                #expect(try await store.decisions.save(endedNow, replacing: stored) != nil)
                #expect(try await store.decisions.state(decisionID: "d-1")?.decision.round == ended.decision.round)
                // A participant who leaves takes their answers with them.
                var left = try #require(try await store.decisions.state(decisionID: "d-1"))
                let before = left
                left.decision.participants.removeAll { $0 == cy }
                left.swipes.removeAll { $0.userId == cy }
                #expect(try await store.decisions.save(left, replacing: before) != nil)
                #expect(try await store.decisions.state(decisionID: "d-1")?.swipes.map(\.userId).contains(cy) == false)
            },
            ContractCase("decisions", "ballots saved at once over one version are all written, and the last save finds everyone voted") { store in
                let (ann, bob, cy) = try await prepare(store)
                try await store.decisions.insert(Sample.decision("d-1", group: "g-1", by: ann, participants: [ann, bob, cy]), notifications: [])
                let read = try #require(try await store.decisions.state(decisionID: "d-1"))
                let decisions = store.decisions
                let seen = try await withThrowingTaskGroup(of: Set<String>?.self) { tasks in
                    for (index, voter) in [ann, bob, cy].enumerated() {
                        tasks.addTask {
                            var voted = read
                            voted.ballots = [ballot(voter, ["p\(index + 1)"], at: index)]
                            return try await decisions.save(voted, replacing: read)?.voters
                        }
                    }
                    return try await tasks.reduce(into: [Set<String>?]()) { all, next in all.append(next) }
                }
                #expect(seen.allSatisfy { $0 != nil }, "ballots alone do not refuse each other")
                // Saves are ordered, each seeing those before it: one of them found everyone voted, and only one.
                #expect(seen.filter { $0 == [ann, bob, cy] }.count == 1, "\(seen)")
                #expect(seen.compactMap { $0?.count }.sorted() == [1, 2, 3], "\(seen)")
                let stored = try #require(try await store.decisions.state(decisionID: "d-1"))
                #expect(Set(stored.ballots.map(\.userId)) == [ann, bob, cy])
                #expect(stored.version == read.version + 3 && stored.decisionVersion == read.decisionVersion)
                // A change of the decision over the version read before those ballots is refused: it would not count them.
                var closed = read
                closed.decision.status = .closed
                #expect(try await decisions.save(closed, replacing: read) == nil)
            },
            ContractCase("decisions", "formerMembers names the participants who left the decision's group") { store in
                let (ann, bob, cy) = try await prepare(store)
                try await store.decisions.insert(Sample.decision("d-1", group: "g-1", by: ann, participants: [ann, bob, cy]), notifications: [])
                try await store.decisions.insert(Sample.decision("d-2", group: nil, by: ann, participants: [ann, bob]), notifications: [])
                try await store.groups.removeMember(groupID: "g-1", userID: bob, promoting: nil)
                let state = try #require(try await store.decisions.state(decisionID: "d-1"))
                #expect(state.formerMembers == [bob])
                #expect(Set(state.decision.participants) == [ann, bob, cy], "leaving the group does not change the decision by itself")
                #expect(try await store.decisions.state(decisionID: "d-2")?.formerMembers.isEmpty == true, "no group, no former members")
            },
        ] + DecisionRepositoryContract.listCases
    }
}
