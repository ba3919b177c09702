import Foundation
import PlacesCore
import Testing

/// What every `MessageRepository` does: messages of an active decision only, the bound counted in the database, pages
/// newest first, and messages that leave with their author's account.
enum MessageRepositoryContract {
    static func message(_ id: String, in decision: String = "d-1", by author: String, at seconds: Int) -> NewMessage {
        NewMessage(id: id, decisionId: decision, authorId: author, text: "Message \(id)", createdAt: Sample.at(seconds))
    }

    /// A bound of `allowed` messages in the minute before `seconds`.
    static func bound(_ allowed: Int, at seconds: Int) -> WindowLimit {
        WindowLimit(allowed: allowed, since: Sample.at(seconds - 60))
    }

    /// Ann and Bob, and an active decision `d-1` among them that Ann started: their ids.
    static func annAndBobDeciding(_ store: any RepositoryStore) async throws -> (String, String) {
        let ids = try await store.addUsers("ann", "bob")
        try await store.decisions.insert(Sample.decision("d-1", group: nil, by: ids[0], participants: ids), notifications: [])
        return (ids[0], ids[1])
    }

    static var cases: [ContractCase] {
        [
            ContractCase("messages", "messages page newest first, then by id, and are found by id and by author") { store in
                let (ann, bob) = try await annAndBobDeciding(store)
                try await store.decisions.insert(Sample.decision("d-2", group: nil, by: ann, participants: [ann, bob]), notifications: [])
                for (id, author, seconds) in [("m-1", ann, 1), ("m-2", bob, 2), ("m-3", ann, 2), ("m-4", bob, 3)] {
                    #expect(try await store.messages.insert(message(id, by: author, at: seconds), limit: bound(10, at: seconds)) == .stored)
                }
                #expect(try await store.messages.insert(message("m-5", in: "d-2", by: bob, at: 4), limit: bound(10, at: 4)) == .stored)

                let all = try await allPages(limit: 2) { try await store.messages.messages(decisionID: "d-1", page: $0) }
                #expect(all.map(\.id) == ["m-4", "m-3", "m-2", "m-1"])
                #expect(all.first?.author.username == "bob" && all.first?.text == "Message m-4" && all.first?.createdAt == Sample.at(3))
                #expect(try await store.messages.messages(ids: ["m-1", "m-5", "m-ghost"], decisionID: "d-1").map(\.id) == ["m-1"])
                #expect(try await store.messages.messages(authorID: bob).map(\.id) == ["m-2", "m-4", "m-5"])
            },
            ContractCase("messages", "a message is stored only while its decision is active and its author is under the bound") { store in
                let (ann, bob) = try await annAndBobDeciding(store)
                #expect(try await store.messages.insert(message("m-1", by: ann, at: 10), limit: bound(2, at: 10)) == .stored)
                #expect(try await store.messages.insert(message("m-2", by: ann, at: 20), limit: bound(2, at: 20)) == .stored)
                // The bound is reached: the oldest message that reaches it is named, and nothing is stored.
                #expect(try await store.messages.insert(message("m-3", by: ann, at: 30), limit: bound(2, at: 30)) == .tooMany(oldestCounted: Sample.at(10)))
                #expect(try await store.messages.insert(message("m-4", by: bob, at: 30), limit: bound(2, at: 30)) == .stored, "each person's own")
                // Once the first is more than a minute old, one more fits.
                #expect(try await store.messages.insert(message("m-5", by: ann, at: 71), limit: bound(2, at: 71)) == .stored)
                #expect(try await store.messages.messages(decisionID: "d-1", page: PageRequest()).items.map(\.id) == ["m-5", "m-4", "m-2", "m-1"])

                // An ended decision, and one that does not exist, take none.
                let read = try #require(try await store.decisions.state(decisionID: "d-1"))
                var ended = read
                ended.decision.status = .closed
                ended.decision.endedAt = Sample.at(80)
                #expect(try await store.decisions.save(ended, replacing: read) != nil)
                #expect(try await store.messages.insert(message("m-6", by: bob, at: 90), limit: bound(10, at: 90)) == .decisionEnded)
                #expect(try await store.messages.insert(message("m-7", in: "d-none", by: bob, at: 90), limit: bound(10, at: 90)) == .decisionEnded)
                #expect(try await store.messages.messages(decisionID: "d-1", page: PageRequest()).items.count == 4)
            },
            ContractCase("messages", "one person's messages sent at once are counted one at a time: the bound holds exactly") { store in
                let ids = try await store.addUsers("ann")
                try await store.decisions.insert(Sample.decision("d-1", group: nil, by: ids[0], participants: ids), notifications: [])
                let outcomes = try await withThrowingTaskGroup(of: MessageInsert.self) { group in
                    for index in 1...8 {
                        group.addTask { try await store.messages.insert(message("m-\(index)", by: ids[0], at: 10), limit: bound(3, at: 10)) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 == .stored }.count == 3)
                #expect(outcomes.filter { $0 == .tooMany(oldestCounted: Sample.at(10)) }.count == 5)
                #expect(try await store.messages.messages(decisionID: "d-1", page: PageRequest()).items.count == 3)
            },
            ContractCase("messages", "a message reaches the feed as the decision's, and leaves with its author's account") { store in
                let (ann, bob) = try await annAndBobDeciding(store)
                #expect(try await store.messages.insert(message("m-1", by: bob, at: 1), limit: bound(10, at: 1)) == .stored)
                #expect(try await store.messages.insert(message("m-2", by: ann, at: 2), limit: bound(10, at: 2)) == .stored)
                let feed = try await store.feedRows().filter { $0.kind == "message" }
                #expect(feed == [FeedRow("message", "d-1", "m-1"), FeedRow("message", "d-1", "m-2")])

                try await store.accounts.delete(userID: bob)
                #expect(try await store.messages.messages(decisionID: "d-1", page: PageRequest()).items.map(\.id) == ["m-2"])
                #expect(try await store.messages.messages(authorID: bob).isEmpty)
            },
        ]
    }
}
