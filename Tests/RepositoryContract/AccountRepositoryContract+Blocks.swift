import Foundation
import PlacesCore
import Testing

/// What every `AccountRepository` does about blocks and status lines, and what a block hides from the other
/// repositories' reads (user search, conversations, notifications), filtered in their queries.
extension AccountRepositoryContract {
    static var blockCases: [ContractCase] {
        [
            ContractCase("accounts", "a block ends a friendship, requests and invitations between the two, and is kept once") { store in
                let ids = try await store.addUsers("ann", "bob", "cy")
                let (ann, bob, cy) = (ids[0], ids[1], ids[2])
                try await store.addGroup("g-ann", name: "Ann's", creator: ann)
                try await store.addGroup("g-bob", name: "Bob's", creator: bob)
                try await store.groups.insertFriendRequest(from: ann, to: bob, now: Sample.at(1), notifications: [])
                #expect(try await store.groups.acceptFriendRequest(from: ann, to: bob, now: Sample.at(2)))
                try await store.groups.insertFriendRequest(from: cy, to: bob, now: Sample.at(2), notifications: [])
                try await store.groups.insertInvitation(groupID: "g-ann", inviteeID: bob, inviterID: ann, now: Sample.at(3), notifications: [])
                try await store.groups.insertInvitation(groupID: "g-bob", inviteeID: ann, inviterID: bob, now: Sample.at(3), notifications: [])
                try await store.groups.insertInvitation(groupID: "g-bob", inviteeID: cy, inviterID: bob, now: Sample.at(3), notifications: [])

                try await store.accounts.block(blockerID: bob, blockedID: ann, now: Sample.at(4))
                try await store.accounts.block(blockerID: bob, blockedID: ann, now: Sample.at(9))
                #expect(try await store.groups.friendship(ann, bob) == nil)
                #expect(try await store.groups.invitations(inviteeID: bob, page: PageRequest()).items.isEmpty)
                #expect(try await store.groups.invitations(inviteeID: ann, page: PageRequest()).items.isEmpty)
                #expect(try await store.groups.friendship(cy, bob) == .pending(requesterID: cy), "others' requests stay")
                #expect(try await store.groups.invitations(inviteeID: cy, page: PageRequest()).items.map(\.groupId) == ["g-bob"])
                let blocked = try await store.accounts.blocked(blockerID: bob, page: PageRequest()).items
                #expect(blocked.map(\.user.username) == ["ann"] && blocked.first?.since == Sample.at(4), "a block again keeps its time")
                #expect(try await store.accounts.blocks(between: bob, ann) == BlockBetween(firstBlocksSecond: true))
                #expect(try await store.accounts.blocks(between: ann, bob) == BlockBetween(secondBlocksFirst: true))
                #expect(try await store.accounts.blocks(between: ann, cy) == .none)
                #expect(try await store.accounts.blockers(of: ann, among: [bob, cy, "u-nobody"]) == [bob])
                #expect(try await store.accounts.export(userID: bob)?.blocked.map(\.user.id) == [ann])

                try await store.accounts.unblock(blockerID: bob, blockedID: ann)
                try await store.accounts.unblock(blockerID: bob, blockedID: ann)
                #expect(try await store.accounts.blocks(between: ann, bob) == .none)
                #expect(try await store.accounts.blocked(blockerID: bob, page: PageRequest()).items.isEmpty)
            },
            ContractCase("accounts", "a request or an invitation between two people a block stands between is refused in its own transaction, even at once with the block") { store in
                let ids = try await store.addUsers("ann", "bob", "cy", "dan")
                let (ann, bob, cy, dan) = (ids[0], ids[1], ids[2], ids[3])
                try await store.addGroup("g-ann", name: "Ann's", creator: ann)
                try await store.accounts.block(blockerID: bob, blockedID: ann, now: Sample.at(1))
                func refusedAsBlocked(_ write: () async throws -> Void) async -> Bool {
                    do {
                        try await write()
                        return false
                    } catch {
                        return (error as? PlacesError)?.cause == .blocked
                    }
                }
                // Either way round: the service looked before the block was saved.
                #expect(await refusedAsBlocked { try await store.groups.insertFriendRequest(from: ann, to: bob, now: Sample.at(2), notifications: []) })
                #expect(await refusedAsBlocked { try await store.groups.insertFriendRequest(from: bob, to: ann, now: Sample.at(2), notifications: []) })
                #expect(await refusedAsBlocked {
                    try await store.groups.insertInvitation(groupID: "g-ann", inviteeID: bob, inviterID: ann, now: Sample.at(2), notifications: [])
                })
                #expect(try await store.groups.friendship(ann, bob) == nil)
                #expect(try await store.groups.invitations(inviteeID: bob, page: PageRequest()).items.isEmpty)

                // A block and a request between the same two at once: never both a block and the request.
                await withTaskGroup(of: Void.self) { racing in
                    racing.addTask { try? await store.accounts.block(blockerID: dan, blockedID: cy, now: Sample.at(3)) }
                    racing.addTask { try? await store.groups.insertFriendRequest(from: cy, to: dan, now: Sample.at(3), notifications: []) }
                }
                #expect(try await store.accounts.blocks(between: dan, cy) == BlockBetween(firstBlocksSecond: true))
                #expect(try await store.groups.friendship(cy, dan) == nil, "the request is refused, or stored first and ended by the block")
            },
            ContractCase("accounts", "the people one blocks page by username, and leave with either account") { store in
                let ids = try await store.addUsers("ann", "Dora", "bob", "cy", "eve")
                for (n, blocked) in ids.dropFirst().enumerated() {
                    try await store.accounts.block(blockerID: ids[0], blockedID: blocked, now: Sample.at(n))
                }
                try await store.accounts.block(blockerID: ids[4], blockedID: ids[0], now: Sample.at(9))
                let all = try await allPages(limit: 2) { try await store.accounts.blocked(blockerID: ids[0], page: $0) }
                #expect(all.map(\.user.username) == ["bob", "cy", "Dora", "eve"])
                try await store.accounts.delete(userID: ids[2])
                try await store.accounts.delete(userID: ids[4])
                #expect(try await store.accounts.blocked(blockerID: ids[0], page: PageRequest()).items.map(\.user.username) == ["cy", "Dora"])
                #expect(try await store.accounts.blockers(of: ids[0], among: ids).isEmpty)
            },
            ContractCase("accounts", "user search leaves out both sides of a block, in the query: pages stay full") { store in
                let ids = try await store.addUsers("ann", "anna", "annie", "anny", "annika", "annabel")
                let ann = ids[0]
                try await store.accounts.block(blockerID: ann, blockedID: ids[1], now: Sample.now)
                try await store.accounts.block(blockerID: ids[3], blockedID: ann, now: Sample.now)
                let seen = try await allPages(limit: 2) { try await store.accounts.searchUsers("ann", viewerID: ann, page: $0) }
                #expect(seen.map(\.username) == ["ann", "annabel", "annie", "annika"])
                let byAnna = try await store.accounts.searchUsers("ann", viewerID: ids[1], page: PageRequest()).items.map(\.username)
                #expect(byAnna == ["anna", "annabel", "annie", "annika", "anny"])
                #expect(try await store.accounts.searchUsers("ann", page: PageRequest()).items.count == 6, "nobody asking: everyone")
            },
            ContractCase("accounts", "a status shows to oneself, friends and fellow members until it expires, never across a block") { store in
                let ids = try await store.addUsers("ann", "bob", "cy", "dee", "eve")
                let (ann, bob, cy, dee, eve) = (ids[0], ids[1], ids[2], ids[3], ids[4])
                try await store.groups.insertFriendRequest(from: ann, to: bob, now: Sample.at(1), notifications: [])
                #expect(try await store.groups.acceptFriendRequest(from: ann, to: bob, now: Sample.at(2)))
                try await store.groups.insertFriendRequest(from: ann, to: eve, now: Sample.at(1), notifications: [])
                try await store.addGroup("g-1", name: "Lunch", creator: cy, members: [ann, dee])
                try await store.accounts.setStatus(UserStatus(text: "Out to lunch", expiresAt: Sample.at(100)), userID: ann)
                try await store.accounts.setStatus(UserStatus(text: "Here", expiresAt: nil), userID: bob)

                let status = UserStatus(text: "Out to lunch", expiresAt: Sample.at(100))
                for viewer in [ann, bob, cy, dee] {
                    #expect(try await store.accounts.statuses(of: [ann, bob], visibleTo: viewer, now: Sample.at(50))[ann] == status)
                }
                #expect(
                    try await store.accounts.statuses(of: [ann], visibleTo: eve, now: Sample.at(50)).isEmpty,
                    "a pending request is no friendship"
                )
                #expect(try await store.accounts.statuses(of: [ann], visibleTo: bob, now: Sample.at(100)).isEmpty, "expired")
                #expect(try await store.accounts.statuses(of: [ann, bob], visibleTo: cy, now: Sample.at(50)).keys.sorted() == [ann])

                try await store.accounts.block(blockerID: dee, blockedID: ann, now: Sample.at(60))
                #expect(try await store.accounts.statuses(of: [ann], visibleTo: dee, now: Sample.at(70)).isEmpty, "the blocker sees none")
                #expect(try await store.accounts.statuses(of: [dee], visibleTo: ann, now: Sample.at(70)).isEmpty)
                try await store.accounts.setStatus(UserStatus(text: "Back", expiresAt: nil), userID: dee)
                #expect(try await store.accounts.statuses(of: [dee], visibleTo: ann, now: Sample.at(70)).isEmpty, "nor the one blocked")
                #expect(try await store.accounts.statuses(of: [dee], visibleTo: cy, now: Sample.at(70))[dee]?.text == "Back")

                try await store.accounts.setStatus(nil, userID: ann)
                #expect(try await store.accounts.statuses(of: [ann], visibleTo: ann, now: Sample.at(70)).isEmpty)
                #expect(try await store.accounts.export(userID: bob)?.status == UserStatus(text: "Here", expiresAt: nil))
                try await store.accounts.delete(userID: bob)
                #expect(try await store.accounts.statuses(of: [bob], visibleTo: bob, now: Sample.at(70)).isEmpty)
            },
            ContractCase("messages", "a reader does not see the messages of people they block, in pages and by id") { store in
                let ids = try await store.addUsers("ann", "bob", "cy")
                let (ann, bob, cy) = (ids[0], ids[1], ids[2])
                try await store.decisions.insert(Sample.decision("d-1", group: nil, by: ann, participants: ids), notifications: [])
                for (id, author, seconds) in [("m-1", bob, 1), ("m-2", cy, 2), ("m-3", bob, 3), ("m-4", cy, 4), ("m-5", ann, 5)] {
                    let message = MessageRepositoryContract.message(id, by: author, at: seconds)
                    #expect(try await store.messages.insert(message, limit: MessageRepositoryContract.bound(10, at: seconds)) == .stored)
                }
                try await store.accounts.block(blockerID: ann, blockedID: bob, now: Sample.at(6))
                let seen = try await allPages(limit: 2) { try await store.messages.messages(decisionID: "d-1", readerID: ann, page: $0) }
                #expect(seen.map(\.id) == ["m-5", "m-4", "m-2"])
                #expect(try await store.messages.messages(ids: ["m-1", "m-2"], decisionID: "d-1", readerID: ann).map(\.id) == ["m-2"])
                let byBob = try await store.messages.messages(decisionID: "d-1", readerID: bob, page: PageRequest()).items
                #expect(byBob.count == 5, "the one blocked still sees the blocker's")
            },
            ContractCase("notifications", "a recipient does not see notifications about people they block: lists, by id, unread counts") {
                store in
                let ids = try await store.addUsers("ann", "bob", "cy")
                let (ann, bob, cy) = (ids[0], ids[1], ids[2])
                try await store.groups.insertFriendRequest(
                    from: bob,
                    to: ann,
                    now: Sample.at(1),
                    notifications: [Sample.notification("n-bob", to: ann, at: 1, subject: .init(userId: bob))]
                )
                try await store.groups.insertFriendRequest(
                    from: cy,
                    to: ann,
                    now: Sample.at(2),
                    notifications: [
                        Sample.notification("n-cy", to: ann, at: 2, subject: .init(userId: cy)),
                        Sample.notification("n-none", to: ann, kind: .decisionStarted, at: 3, subject: .init(decisionId: "d-1")),
                    ]
                )
                #expect(try await store.notifications.unreadCount(recipientID: ann) == 3)
                try await store.accounts.block(blockerID: ann, blockedID: bob, now: Sample.at(4))
                let seen = try await allPages(limit: 1) { try await store.notifications.notifications(recipientID: ann, page: $0) }
                #expect(seen.map(\.id) == ["n-none", "n-cy"])
                #expect(try await store.notifications.notifications(ids: ["n-bob", "n-cy"], recipientID: ann).map(\.id) == ["n-cy"])
                #expect(try await store.notifications.unreadCount(recipientID: ann) == 2)
                try await store.accounts.unblock(blockerID: ann, blockedID: bob)
                #expect(try await store.notifications.unreadCount(recipientID: ann) == 3, "hidden while the block stands, not deleted")
            },
        ]
    }
}
