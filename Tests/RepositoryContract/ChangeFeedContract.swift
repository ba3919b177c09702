import Foundation
import PlacesCore
import Testing

/// What every `PlaceRepository`'s change feed promises: each write that changes a place takes a higher revision, and
/// `changes(since:)` shows what was committed after a revision in commit order, even while another write is open.
enum ChangeFeedContract {
    static var cases: [ContractCase] {
        [
            ContractCase("places", "every write that changes a place takes a higher revision and changes(since:) follows commit order") {
                store in
                let ann = try await store.addUsers("ann")[0]
                let start = try await settled(store)
                try await store.places.insert(Sample.place("a", owner: ann))
                let afterInsertA = try await settled(store)
                try await store.places.insert(Sample.place("b", owner: ann))
                let afterInsertB = try await settled(store)
                let rating = Rating(placeId: "a", userId: ann, stars: 5, review: nil, createdAt: Sample.now, updatedAt: Sample.now)
                _ = try await store.places.save(rating)
                let afterRating = try await settled(store)
                try await store.places.seed([Sample.place("c")])
                let afterSeed = try await settled(store)
                var deleted = Sample.place("b", owner: ann)
                deleted.deletedAt = Sample.at(1)
                try await store.places.update(deleted)
                let afterDelete = try await settled(store)
                let revisions = [start, afterInsertA, afterInsertB, afterRating, afterSeed, afterDelete]
                #expect(zip(revisions, revisions.dropFirst()).allSatisfy { $0 < $1 }, "\(revisions)")

                let all = try #require(try await changes(store, since: start, reaching: afterDelete))
                #expect(all.upserted.map(\.id) == ["a", "c"], "in the order of their last change")
                #expect(all.upserted.first?.rating == RatingAggregate(count: 1, sum: 5))
                #expect(all.deleted == ["b"])
                // A position, not a count of writes: on PostgreSQL other transactions move it too.
                #expect(all.revision >= afterDelete)
                let sinceB = try #require(try await changes(store, since: afterInsertB, reaching: afterDelete))
                #expect(sinceB.upserted.map(\.id) == ["a", "c"] && sinceB.deleted == ["b"])
                let sinceRating = try #require(try await changes(store, since: afterRating, reaching: afterDelete))
                #expect(sinceRating.upserted.map(\.id) == ["c"] && sinceRating.deleted == ["b"])
                let sinceSeed = try #require(try await changes(store, since: afterSeed, reaching: afterDelete))
                #expect(sinceSeed.upserted.isEmpty && sinceSeed.deleted == ["b"])
                let none = try #require(try await changes(store, since: afterDelete, reaching: afterDelete))
                #expect(none.upserted.isEmpty && none.deleted.isEmpty && none.revision >= afterDelete)
            },
            ContractCase("places", "unapplied(since:leavingOut:) counts the places changed after a revision, and the oldest change's age") {
                store in
                let start = try await settled(store)
                #expect(try await store.places.unapplied(since: start, leavingOut: []) == UnappliedChanges(changes: 0, oldestSeconds: 0))
                for id in ["a", "b"] { try await store.places.seed([Sample.place(id)]) }
                try await store.places.seed([Sample.place("a")])
                let two = try await store.places.unapplied(since: start, leavingOut: [])
                #expect(two.changes == 2, "a place changed twice counts once")
                // Written a moment ago by the database's clock: never negative, and far below an hour.
                #expect(two.oldestSeconds >= 0 && two.oldestSeconds < 3600, "\(two)")
                // Places the index holds as a later read found them are left out.
                #expect(try await store.places.unapplied(since: start, leavingOut: ["a"]).changes == 1)
                #expect(try await store.places.unapplied(since: start, leavingOut: ["a", "b"]) == UnappliedChanges(changes: 0, oldestSeconds: 0))
                let now = try await settled(store)
                #expect(try await store.places.unapplied(since: now, leavingOut: []).changes == 0)
            },
            ContractCase("places", "changes(since:) is nil when more than the limit changed, and a snapshot is current at the same counter") {
                store in
                let start = try await settled(store)
                for id in ["a", "b", "c"] { try await store.places.seed([Sample.place(id)]) }
                // Read once the horizon has passed the three: a transaction open elsewhere in the database (autovacuum's
                // analysis, say) can hold it below them for a moment, and the read would then show fewer than three.
                _ = try await settled(store)
                #expect(try await store.places.changes(since: start, limit: 2) == nil)
                let three = try #require(try await store.places.changes(since: start, limit: 3))
                #expect(three.upserted.map(\.id) == ["a", "b", "c"])
                let snapshot = try await store.places.liveSummaries()
                #expect(snapshot.revision >= three.revision)
                #expect(Set(snapshot.summaries.map(\.id)) == ["a", "b", "c"])
            },
            ContractCase("places", "a seed's batches become visible at once, as one change after everything before it") { store in
                try await store.places.seed([Sample.place("first")])
                let before = try await settled(store)
                let transaction = try await store.places.beginSeed()
                #expect(try await transaction.upsert([Sample.place("s1"), Sample.place("s2")]).isEmpty)
                #expect(try await transaction.upsert([Sample.place("s3")]).isEmpty)
                try await transaction.commit()
                _ = try await settled(store)
                let changes = try #require(try await store.places.changes(since: before, limit: 10))
                #expect(Set(changes.upserted.map(\.id)) == ["s1", "s2", "s3"])
                #expect(changes.revision > before)
                #expect(try await store.places.changes(since: changes.revision, limit: 10)?.upserted.isEmpty == true)
            },
            ContractCase(
                "places",
                "with a seed held open while an insert commits, nothing committed ever appears at or below a revision already seen"
            ) {
                store in
                try await commitOrderWithAnOpenSeed(store)
            },
            ContractCase("places", "the feed records decisions, ballots (who, never what), notifications and changes of who may see what") {
                store in
                let (ann, bob, cy) = try await DecisionRepositoryContract.prepare(store)
                try await store.accounts.insert(
                    Session(tokenHash: "hash-of-bobs-token", userID: bob, createdAt: Sample.now, expiresAt: Sample.at(3600))
                )
                let before = try await store.feedRows().count
                try await store.decisions.insert(Sample.decision("d-1", group: "g-1", by: ann, participants: [ann, bob, cy]), notifications: [])
                let read = try #require(try await store.decisions.state(decisionID: "d-1"))
                var voted = read
                voted.ballots = [DecisionRepositoryContract.ballot(bob, ["p2", "p1"], at: 2)]
                voted.notifications = [Sample.notification("n-1", to: cy, kind: .decisionReminder, at: 2)]
                let saved = try #require(try await store.decisions.save(voted, replacing: read))
                try await store.accounts.deleteSession(tokenHash: "hash-of-bobs-token")
                try await store.groups.removeMember(groupID: "g-1", userID: cy, promoting: nil)
                try await store.accounts.delete(userID: bob)
                let rows = Array(try await store.feedRows().dropFirst(before))
                let decisionRows = rows.filter { $0.kind == "decision" }
                #expect(decisionRows.first == FeedRow("decision", "d-1", "active", version: read.version), "started")
                #expect(decisionRows.contains(FeedRow("decision", "d-1", "active", version: saved.version)), "saved with a ballot")
                #expect(rows.contains(FeedRow("ballot", "d-1", bob, version: saved.version)), "who voted, at the decision's version")
                #expect(!rows.contains { $0.description.contains("p2") }, "never what: \(rows)")
                #expect(rows.contains(FeedRow("notification", cy, "n-1")))
                #expect(rows.contains(FeedRow("session", bob, "hash-of-bobs-token")))
                #expect(rows.contains(FeedRow("member", "g-1", cy)), "a member removed")
                #expect(rows.contains(FeedRow("member", "g-1", bob)), "a deleted account leaves its groups")
                #expect(rows.contains(FeedRow("account", bob)))
                // The feed's order is the order of the writes.
                let order = ["decision", "ballot", "notification", "session", "member", "account"].map { kind in
                    rows.firstIndex { $0.kind == kind } ?? -1
                }
                #expect(order == order.sorted() && !order.contains(-1), "\(rows)")
            },
            ContractCase("places", "a snapshot and the changes after it name the database's generation, which writes do not change") { store in
                let before = try await store.places.liveSummaries()
                #expect(!before.generation.isEmpty, "every database has a generation")
                try await store.places.seed([Sample.place("a")])
                let changes = try #require(try await store.places.changes(since: before.revision, limit: 100))
                #expect(changes.generation == before.generation)
                #expect(try await store.places.liveSummaries().generation == before.generation)
            },
        ]
    }

    /// The feed's position once every change committed before the call is at or below it: on PostgreSQL the horizon
    /// may briefly sit below a commit (another transaction of the schema, such as an instance's wake-up call, still
    /// open), and a reader then sees that change again after it, which is allowed but not what these cases count.
    /// `changes(since:limit:)` once its revision has reached `revision`, a position an earlier read passed. On
    /// PostgreSQL a transaction of another case that ends between a read's snapshot and its look at who runs what counts
    /// as running (the horizon errs on the safe side), so for a moment a read may stop below a position an earlier read
    /// passed; a reader keeps its own position then, and reads again. For reads with no transaction of the case open.
    static func changes(_ store: any RepositoryStore, since start: Int64, reaching revision: Int64) async throws -> PlaceChanges? {
        for _ in 0..<5_000 {
            let changes = try await store.places.changes(since: start, limit: 10)
            guard let changes, changes.revision < revision else { return changes }
            try await Task.sleep(for: .milliseconds(1))
        }
        Issue.record("the feed's horizon stayed below \(revision)")
        return try await store.places.changes(since: start, limit: 10)
    }

    static func settled(_ store: any RepositoryStore) async throws -> Int64 {
        let reach = try await store.places.liveSummaries().reach
        for _ in 0..<5_000 {
            let revision = try await store.places.liveSummaries().revision
            if revision >= reach { return revision }
            try await Task.sleep(for: .milliseconds(1))
        }
        Issue.record("the feed's horizon stayed below \(reach)")
        return try await store.places.liveSummaries().revision
    }

    /// One observation of the feed: the revision it was current at and what it showed after the start.
    struct Observation: Sendable {
        var revision: Int64
        var upserted: [String]
    }

    /// Holds a seed transaction open while another writer inserts a place, polls the feed meanwhile, then commits.
    ///
    /// An engine may make the insert wait for the seed (one writer at a time) or commit it first (concurrent writers),
    /// and a read may wait for the open transaction or not: every interleaving is legal, and the checks hold for each.
    /// Polls are bounded in number and never wait on a clock, so the outcome does not depend on timing.
    static func commitOrderWithAnOpenSeed(_ store: any RepositoryStore) async throws {
        let ann = try await store.addUsers("ann")[0]
        try await store.places.seed([Sample.place("base")])
        let start = try await settled(store)

        let transaction = try await store.places.beginSeed()
        #expect(try await transaction.upsert([Sample.place("seeded")]).isEmpty)
        let places = store.places
        let insert = Task { try await places.insert(Sample.place("inserted", owner: ann)) }
        let observer = Task {
            var seen: [Observation] = []
            for _ in 0..<20 {
                let changes = try #require(try await places.changes(since: start, limit: 100))
                seen.append(Observation(revision: changes.revision, upserted: changes.upserted.map(\.id)))
                if Set(changes.upserted.map(\.id)) == ["seeded", "inserted"] { break }
                await Task.yield()
            }
            return seen
        }
        // Give the insert and the observer a chance to run while the seed is open, without waiting on either: on an
        // engine whose reads queue behind the open writer, waiting would never end.
        for _ in 0..<50 { await Task.yield() }
        try await transaction.commit()
        try await insert.value
        var observations = try await observer.value
        let final = try #require(try await store.places.changes(since: start, limit: 100))
        observations.append(Observation(revision: final.revision, upserted: final.upserted.map(\.id)))

        let finalOrder = final.upserted.map(\.id)
        #expect(Set(finalOrder) == ["seeded", "inserted"])
        #expect(final.revision >= start + 2, "two commits, two revisions")
        for (earlier, later) in zip(observations, observations.dropFirst()) {
            #expect(earlier.revision <= later.revision, "the counter never goes back: \(observations)")
            #expect(Set(earlier.upserted).isSubset(of: later.upserted), "what was seen stays seen: \(observations)")
        }
        for seen in observations {
            #expect(seen.revision >= start)
            // Only whole commits are seen: the seed's place with the seed, and a feed at `start` shows nothing.
            if seen.revision == start { #expect(seen.upserted.isEmpty, "\(seen)") }
            let after = try #require(try await store.places.changes(since: seen.revision, limit: 100)).upserted.map(\.id)
            let missed = Set(finalOrder).subtracting(seen.upserted)
            #expect(
                missed.isSubset(of: after),
                "committed after revision \(seen.revision) was seen, so changes(since: \(seen.revision)) must show it: \(seen), \(after)"
            )
            #expect(Set(after).isDisjoint(with: seen.upserted), "a change seen at a revision is not after it: \(seen)")
            // What was seen first was committed first: it comes first in the feed's commit order.
            #expect(Array(finalOrder.prefix(seen.upserted.count)) == seen.upserted, "\(seen) leads \(finalOrder)")
        }
    }
}
