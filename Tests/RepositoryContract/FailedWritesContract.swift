import Foundation
import PlacesCore
import Testing

/// What every engine leaves behind when a write fails part way: nothing. A write and the notifications it carries are
/// one transaction, so a notification that cannot be stored (its id is taken) undoes the write it came with.
enum FailedWritesContract {
    /// A notification to `recipient` reusing the id of one already stored.
    static func taken(to recipient: String) -> UserNotification {
        Sample.notification("n-taken", to: recipient, at: 99)
    }

    /// Stores the notification `taken(to:)` collides with.
    static func storeTakenID(_ store: any RepositoryStore, author: String, recipient: String) async throws {
        try await store.decisions.insert(
            Sample.decision("d-seed", group: nil, by: author, participants: [author, recipient]),
            notifications: [Sample.notification("n-taken", to: recipient)]
        )
    }

    static var cases: [ContractCase] {
        [
            ContractCase("groups", "a friend request or invitation whose notification cannot be stored leaves nothing behind") { store in
                let ids = try await store.addUsers("ann", "bob")
                let (ann, bob) = (ids[0], ids[1])
                try await storeTakenID(store, author: ann, recipient: bob)
                try await store.addGroup("g-1", name: "Lunch", creator: ann)
                await expectFailure {
                    try await store.groups.insertFriendRequest(from: ann, to: bob, now: Sample.at(1), notifications: [taken(to: bob)])
                }
                #expect(try await store.groups.friendship(ann, bob) == nil)
                await expectFailure {
                    try await store.groups.insertInvitation(
                        groupID: "g-1",
                        inviteeID: bob,
                        inviterID: ann,
                        now: Sample.at(2),
                        notifications: [taken(to: bob)]
                    )
                }
                #expect(try await store.groups.invitations(inviteeID: bob, page: PageRequest()).items.isEmpty)
                #expect(try await store.groups.pendingInvitationCount(inviterID: ann) == 0)
                #expect(try await store.notifications.unreadCount(recipientID: bob) == 1, "only the first notification")
                // Nothing is held either: the same writes go through with notifications that can be stored.
                try await store.groups.insertFriendRequest(from: ann, to: bob, now: Sample.at(3), notifications: [])
                try await store.groups.insertInvitation(groupID: "g-1", inviteeID: bob, inviterID: ann, now: Sample.at(3), notifications: [])
            },
            ContractCase("decisions", "a decision or a save whose notification cannot be stored leaves nothing behind") { store in
                let ids = try await store.addUsers("ann", "bob")
                let (ann, bob) = (ids[0], ids[1])
                try await storeTakenID(store, author: ann, recipient: bob)
                await expectFailure {
                    try await store.decisions.insert(
                        Sample.decision("d-1", group: nil, by: ann, participants: [ann, bob]),
                        notifications: [taken(to: bob)]
                    )
                }
                #expect(try await store.decisions.state(decisionID: "d-1") == nil)
                #expect(try await store.decisions.activeCount(startedBy: ann) == 1)

                let read = try #require(try await store.decisions.state(decisionID: "d-seed"))
                var voted = read
                voted.ballots = [DecisionRepositoryContract.ballot(ann, ["p1"], at: 1)]
                voted.decision.participants = [ann]
                voted.notifications = [Sample.notification("n-new", to: ann, at: 1), taken(to: bob)]
                await expectFailure { _ = try await store.decisions.save(voted, replacing: read) }
                let stored = try #require(try await store.decisions.state(decisionID: "d-seed"))
                #expect(stored.version == read.version && stored.ballots.isEmpty)
                #expect(Set(stored.decision.participants) == [ann, bob])
                #expect(try await store.notifications.unreadCount(recipientID: ann) == 0)
                voted.notifications = []
                #expect(try await store.decisions.save(voted, replacing: read) != nil, "the version read is still the stored one")
            },
        ]
    }
}

/// Expects `body` to throw (any error: engines may name a failed constraint differently).
func expectFailure(sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async {
    do {
        try await body()
        Issue.record("expected the write to fail", sourceLocation: sourceLocation)
    } catch {}
}
