import Foundation
import PlacesCore
import Testing

/// What every engine keeps true for live streams: the feed's events are read after a position in one order, each once
/// however the reads are cut, a topic's events replay between two positions, and a person's open streams are counted
/// across holders, never more than allowed even when opened at once.
enum LiveRepositoryContract {
    static var cases: [ContractCase] {
        [
            ContractCase("live", "events after a position come in feed order, each once however the reads are cut") { store in
                let (ann, bob, _) = try await DecisionRepositoryContract.prepare(store)
                let start = try await store.live.events(after: nil, limit: 100)
                #expect(start.events.isEmpty)
                try await store.decisions.insert(
                    Sample.decision("d-1", group: "g-1", by: ann, participants: [ann, bob]),
                    notifications: [Sample.notification("n-1", to: bob, kind: .decisionStarted, at: 1)]
                )
                let read = try #require(try await store.decisions.state(decisionID: "d-1"))
                var voted = read
                voted.ballots = [DecisionRepositoryContract.ballot(ann, ["p1"], at: 2)]
                #expect(try await store.decisions.save(voted, replacing: read) != nil)
                // Place writes are the index's, not the streams'.
                try await store.places.seed([Sample.place("p4")])

                let all = try await settledEvents(store, after: start.through, count: 4)
                #expect(all.map(\.kind) == [.decision, .notification, .decision, .ballot], "\(all)")
                #expect(all.map(\.subject) == ["d-1", bob, "d-1", "d-1"])
                #expect(all[3].detail == ann, "who voted, never what")
                #expect(all[2].version == all[3].version)
                #expect(zip(all, all.dropFirst()).allSatisfy { $0.position < $1.position })
                // One at a time, from each read's end: the same events.
                var position = start.through
                var oneByOne: [FeedEvent] = []
                for _ in 0..<10 where oneByOne.count < all.count {
                    let next = try await store.live.events(after: position, limit: 1)
                    oneByOne += next.events
                    #expect(next.through >= position)
                    position = next.through
                }
                #expect(oneByOne == all)
                let after = try await store.live.events(after: position, limit: 100)
                #expect(after.events.isEmpty)
                #expect(after.generation == start.generation)
            },
            ContractCase("live", "a topic's events replay between two positions") { store in
                let (ann, bob, cy) = try await DecisionRepositoryContract.prepare(store)
                let start = try await store.live.events(after: nil, limit: 100).through
                try await store.decisions.insert(Sample.decision("d-1", group: "g-1", by: ann, participants: [ann, bob, cy]), notifications: [])
                try await store.decisions.insert(Sample.decision("d-2", group: "g-1", by: ann, participants: [ann, bob]), notifications: [])
                var state = try #require(try await store.decisions.state(decisionID: "d-1"))
                for (index, voter) in [ann, bob, cy].enumerated() {
                    var voted = state
                    voted.ballots.append(DecisionRepositoryContract.ballot(voter, ["p1"], at: index))
                    #expect(try await store.decisions.save(voted, replacing: state) != nil)
                    state = try #require(try await store.decisions.state(decisionID: "d-1"))
                }
                let all = try await settledEvents(store, after: start, count: 8)
                let mine = all.filter { $0.subject == "d-1" }
                let end = try await store.live.events(after: nil, limit: 0).through
                let replayed = try await store.live.events(of: .decision("d-1"), after: start, before: end, limit: 100)
                #expect(replayed == mine)
                // From the second ballot's position on, up to (not including) the third's.
                let ballots = mine.filter { $0.kind == .ballot }
                let between = try await store.live.events(of: .decision("d-1"), after: ballots[1].position, before: ballots[2].position, limit: 100)
                #expect(between == mine.filter { $0.position > ballots[1].position && $0.position < ballots[2].position })
                #expect(try await store.live.events(of: .decision("d-1"), after: start, before: end, limit: 2) == Array(mine.prefix(2)))
                #expect(try await store.live.events(of: .notifications(recipientID: bob), after: start, before: end, limit: 100).isEmpty)
            },
            ContractCase("live", "nothing follows the largest position there is, and no position wraps around to the first") { store in
                let (ann, bob, _) = try await DecisionRepositoryContract.prepare(store)
                let start = try await store.live.events(after: nil, limit: 100).through
                try await store.decisions.insert(
                    Sample.decision("d-1", group: "g-1", by: ann, participants: [ann, bob]),
                    notifications: [Sample.notification("n-1", to: bob, kind: .decisionStarted, at: 1)]
                )
                #expect(try await settledEvents(store, after: start, count: 2).count == 2)
                let end = FeedPosition.horizon(.max)
                for last in [FeedPosition(transaction: .max, row: .max), FeedPosition(transaction: .max, row: 0)] {
                    #expect(try await store.live.events(of: .decision("d-1"), after: last, before: end, limit: 100).isEmpty, "\(last)")
                    #expect(try await store.live.events(of: .notifications(recipientID: bob), after: last, before: end, limit: 100).isEmpty)
                    #expect(try await store.live.events(after: last, limit: 100).events.isEmpty, "\(last)")
                }
                // A position in the future, far from the largest: nothing either.
                let future = FeedPosition(transaction: start.transaction + 1_000_000, row: 0)
                #expect(try await store.live.events(of: .decision("d-1"), after: future, before: end, limit: 100).isEmpty)
            },
            ContractCase("live", "a person's streams are counted across holders; expired or closed ones stop counting") { store in
                let live = store.live
                let now = Sample.now
                for index in 0..<3 {
                    #expect(
                        try await live.openStream(
                            id: "s-\(index)",
                            userID: "u-ann",
                            holder: index == 0 ? "a" : "b",
                            now: now,
                            until: Sample.at(20),
                            allowed: 3
                        )
                    )
                }
                #expect(try await live.openStream(id: "s-3", userID: "u-ann", holder: "a", now: now, until: Sample.at(20), allowed: 3) == false)
                #expect(try await live.openStream(id: "s-4", userID: "u-bob", holder: "a", now: now, until: Sample.at(20), allowed: 3))
                try await live.closeStream(id: "s-1")
                #expect(try await live.openStream(id: "s-5", userID: "u-ann", holder: "a", now: now, until: Sample.at(20), allowed: 3))
                // Holder a renews its streams; b's lapse (it died), and stop counting.
                try await live.renewStreams(holder: "a", until: Sample.at(40))
                #expect(try await live.openStream(id: "s-6", userID: "u-ann", holder: "a", now: Sample.at(25), until: Sample.at(45), allowed: 3))
                #expect(
                    try await live.openStream(id: "s-7", userID: "u-ann", holder: "a", now: Sample.at(25), until: Sample.at(45), allowed: 3) == false
                )
                try await live.closeStreams(holder: "a")
                #expect(try await live.openStream(id: "s-8", userID: "u-ann", holder: "c", now: Sample.at(25), until: Sample.at(45), allowed: 1))
            },
            ContractCase("live", "a holder's renewal keeps all its streams counting; when it lapses they all stop counting") { store in
                let live = store.live
                /// Opens stream `id` for `person` on `holder` at `now` (seconds after `Sample.now`) for 20 s.
                func open(_ id: String, _ person: String, _ holder: String, at now: Int, allowed: Int) async throws -> Bool {
                    try await live.openStream(
                        id: id,
                        userID: person,
                        holder: holder,
                        now: Sample.at(now),
                        until: Sample.at(now + 20),
                        allowed: allowed
                    )
                }
                for index in 0..<4 { #expect(try await open("a-\(index)", "u-ann", "a", at: 0, allowed: 5)) }
                #expect(try await open("b-0", "u-bob", "a", at: 0, allowed: 5))
                // Renewed past the streams' own first lease: at 50 all four of ann's still count, so one more fits, not two.
                try await live.renewStreams(holder: "a", until: Sample.at(60))
                #expect(try await open("c-0", "u-ann", "c", at: 50, allowed: 5))
                #expect(try await open("c-1", "u-ann", "c", at: 50, allowed: 5) == false)
                // Holder a died (no renewal after 60): at 65 its streams stop counting, all at once, for everyone; c's
                // still count.
                #expect(try await open("c-2", "u-ann", "c", at: 65, allowed: 2))
                #expect(try await open("c-3", "u-ann", "c", at: 65, allowed: 2) == false)
                #expect(try await open("c-4", "u-bob", "c", at: 66, allowed: 1))
                // A renewal takes a lease that lapsed (and was cleared away) again: its new streams count.
                try await live.renewStreams(holder: "a", until: Sample.at(100))
                #expect(try await open("a-9", "u-cy", "a", at: 70, allowed: 1))
                try await live.renewStreams(holder: "a", until: Sample.at(200))
                #expect(try await open("c-5", "u-cy", "c", at: 150, allowed: 1) == false)
            },
            ContractCase("live", "a stream as the release before wrote it (no holder lease) counts while its own lease runs") { store in
                let expiry = Timestamp.text(Sample.at(30))
                try await store.execute(
                    sql: "INSERT INTO live_stream (id, user_id, holder, expires_at) VALUES ('old-1', 'u-ann', 'old', '\(expiry)')"
                )
                let live = store.live
                #expect(try await live.openStream(id: "s-1", userID: "u-ann", holder: "a", now: Sample.now, until: Sample.at(20), allowed: 2))
                try await live.renewStreams(holder: "a", until: Sample.at(100))
                #expect(
                    try await live.openStream(id: "s-2", userID: "u-ann", holder: "a", now: Sample.at(10), until: Sample.at(30), allowed: 2) == false
                )
                #expect(try await live.openStream(id: "s-3", userID: "u-ann", holder: "a", now: Sample.at(30), until: Sample.at(50), allowed: 2))
            },
            ContractCase("live", "leases ring no reader of the feed awake; a write that adds to the feed does") { store in
                let (ann, bob, _) = try await DecisionRepositoryContract.prepare(store)
                let live = store.live
                let bell = Doorbell()
                store.feed.commits.add(bell)
                _ = bell.rangSinceLastLook()
                for index in 0..<3 {
                    #expect(try await live.openStream(id: "s-\(index)", userID: ann, holder: "a", now: Sample.now, until: Sample.at(20), allowed: 5))
                }
                try await live.renewStreams(holder: "a", until: Sample.at(40))
                try await live.closeStream(id: "s-0")
                try await live.closeStreams(holder: "a")
                #expect(!bell.rangSinceLastLook())
                try await store.decisions.insert(Sample.decision("d-1", group: "g-1", by: ann, participants: [ann, bob]), notifications: [])
                #expect(bell.rangSinceLastLook())
            },
            ContractCase("live", "streams opened at once never exceed what is allowed") { store in
                let live = store.live
                let opened = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for index in 0..<12 {
                        group.addTask {
                            try await live.openStream(
                                id: "s-\(index)",
                                userID: "u-ann",
                                holder: "h-\(index % 3)",
                                now: Sample.now,
                                until: Sample.at(20),
                                allowed: 5
                            )
                        }
                    }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
                #expect(opened == 5)
            },
        ]
    }

    /// Every event after `position` once `count` of them can be read (on PostgreSQL a transaction of another case's
    /// schema may hold the horizon a moment).
    static func settledEvents(_ store: any RepositoryStore, after position: FeedPosition, count: Int) async throws -> [FeedEvent] {
        var events: [FeedEvent] = []
        for _ in 0..<500 {
            events = try await store.live.events(after: position, limit: 100).events
            if events.count >= count { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        return events
    }
}
