import Foundation
import PlacesCore
import Testing

/// What every `ChangeFeedRepository` promises: pruning deletes what is older than a moment, sends a reader behind it to
/// a whole snapshot and leaves readers past it reading on.
enum ChangeFeedRepositoryContract {
    static var cases: [ContractCase] {
        [
            ContractCase("feed", "a pruned feed sends a reader behind it to a whole snapshot and goes on for readers past it") { store in
                let start = try await ChangeFeedContract.settled(store)
                let index = PlaceService(repository: store.places, index: PlaceIndex())
                try await index.loadIndex()
                try await store.places.seed([Sample.place("a")])
                let afterA = try await ChangeFeedContract.settled(store)
                #expect(try await store.feed.pruneFeed(writtenBefore: Sample.now.addingTimeInterval(1e9)) >= 1)
                #expect(try await store.places.changes(since: start, limit: 10) == nil, "behind what was pruned")
                let past = try #require(try await store.places.changes(since: afterA, limit: 10))
                #expect(past.upserted.isEmpty && past.deleted.isEmpty)
                try await store.places.seed([Sample.place("b")])
                // Another transaction of the database (another case's, autovacuum's) can hold the horizon for a moment.
                _ = try await ChangeFeedContract.settled(store)
                #expect(try await store.places.changes(since: afterA, limit: 10)?.upserted.map(\.id) == ["b"])
                // An index that was behind the pruned rows loads everything, and has both.
                try await index.syncIndex()
                #expect(Set(try await index.summaries(["a", "b"]).keys) == ["a", "b"])
                #expect(try await store.feed.pruneFeed(writtenBefore: Date(timeIntervalSince1970: 0)) == 0, "nothing is that old")
            },
            ContractCase("feed", "pruning deletes the rows of every kind written before the moment, and only those") { store in
                let (ann, bob, cy) = try await DecisionRepositoryContract.prepare(store)
                try await store.decisions.insert(Sample.decision("d-1", group: "g-1", by: ann, participants: [ann, bob, cy]), notifications: [])
                #expect(try await store.feedRows().contains { $0.kind == "decision" })
                #expect(try await store.feed.pruneFeed(writtenBefore: Date(timeIntervalSince1970: 0)) == 0)
                #expect(try await store.feedRows().contains { $0.kind == "decision" }, "nothing was that old")
                #expect(try await store.feed.pruneFeed(writtenBefore: Date().addingTimeInterval(1e9)) >= 1)
                #expect(try await store.feedRows() == [], "rows of every kind")
            },
            ContractCase("feed", "pruning at a moment between two writes deletes the first one's rows and keeps the second's") { store in
                try await store.places.seed([Sample.place("a")])
                try await Task.sleep(for: .milliseconds(50))
                let moment = Date()
                try await Task.sleep(for: .milliseconds(50))
                try await store.places.seed([Sample.place("b")])
                #expect(try await store.feed.pruneFeed(writtenBefore: moment) >= 1)
                let subjects = try await store.feedRows().map(\.subject)
                #expect(!subjects.contains("a"), "written before the moment")
                #expect(subjects.contains("b"), "written after it")
            },
        ]
    }
}
