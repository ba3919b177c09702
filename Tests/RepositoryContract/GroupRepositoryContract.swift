import Foundation
import PlacesCore
import Testing

/// What every `GroupRepository` does with friendships.
enum GroupRepositoryContract {
    static var cases: [ContractCase] {
        [
            ContractCase("groups", "a friend request is pending either way round, refused twice with conflict, accepted and removed") { store in
                let ids = try await store.addUsers("ann", "bob", "cy")
                let (ann, bob) = (ids[0], ids[1])
                #expect(try await store.groups.friendship(ann, bob) == nil)
                let notice = Sample.notification("n-1", to: bob, subject: UserNotification.Subject(userId: ann))
                try await store.groups.insertFriendRequest(from: ann, to: bob, now: Sample.at(1), notifications: [notice])
                #expect(try await store.groups.friendship(ann, bob) == .pending(requesterID: ann))
                #expect(try await store.groups.friendship(bob, ann) == .pending(requesterID: ann))
                #expect(try await store.notifications.notifications(recipientID: bob, page: PageRequest()).items == [notice])
                await expectError(.conflict) {
                    try await store.groups.insertFriendRequest(from: ann, to: bob, now: Sample.at(2), notifications: [])
                }
                await expectError(.conflict) {
                    try await store.groups.insertFriendRequest(from: bob, to: ann, now: Sample.at(2), notifications: [])
                }
                #expect(try await store.groups.pendingFriendRequestCount(requesterID: ann) == 1)
                #expect(try await store.groups.pendingFriendRequestCount(requesterID: bob) == 0)

                #expect(try await !store.groups.acceptFriendRequest(from: bob, to: ann, now: Sample.at(3)), "only the addressee accepts")
                #expect(try await store.groups.acceptFriendRequest(from: ann, to: bob, now: Sample.at(3)))
                #expect(try await !store.groups.acceptFriendRequest(from: ann, to: bob, now: Sample.at(4)))
                #expect(try await store.groups.friendship(bob, ann) == .friends)
                #expect(try await store.groups.pendingFriendRequestCount(requesterID: ann) == 0)
                let friends = try await store.groups.friends(of: bob, page: PageRequest()).items
                #expect(friends.map(\.user.id) == [ann] && friends.map(\.since) == [Sample.at(3)])
                await expectError(.conflict) {
                    try await store.groups.insertFriendRequest(from: bob, to: ann, now: Sample.at(5), notifications: [])
                }

                #expect(try await store.groups.deleteFriendship(bob, ann))
                #expect(try await !store.groups.deleteFriendship(ann, bob))
                #expect(try await store.groups.friendship(ann, bob) == nil)
                #expect(try await store.groups.friends(of: ann, page: PageRequest()).items.isEmpty)
            },
            ContractCase("groups", "declining a friend request ends it and remembers when, for that requester only") { store in
                let ids = try await store.addUsers("ann", "bob", "cy")
                let (ann, bob, cy) = (ids[0], ids[1], ids[2])
                try await store.groups.insertFriendRequest(from: ann, to: bob, now: Sample.at(1), notifications: [])
                #expect(try await !store.groups.declineFriendRequest(from: bob, to: ann, now: Sample.at(2)), "only the addressee declines")
                #expect(try await store.groups.declineFriendRequest(from: ann, to: bob, now: Sample.at(2)))
                #expect(try await !store.groups.declineFriendRequest(from: ann, to: bob, now: Sample.at(3)))
                #expect(try await store.groups.friendship(ann, bob) == nil)
                #expect(try await store.groups.lastDeclined(.friendRequest, subjectID: ann, recipientID: bob) == Sample.at(2))
                #expect(try await store.groups.lastDeclined(.friendRequest, subjectID: cy, recipientID: bob) == nil)
                #expect(try await store.groups.lastDeclined(.groupInvitation, subjectID: ann, recipientID: bob) == nil)

                try await store.groups.insertFriendRequest(from: ann, to: bob, now: Sample.at(10), notifications: [])
                #expect(try await store.groups.declineFriendRequest(from: ann, to: bob, now: Sample.at(11)))
                #expect(try await store.groups.lastDeclined(.friendRequest, subjectID: ann, recipientID: bob) == Sample.at(11))
                #expect(try await !store.groups.deleteFriendship(ann, bob))
            },
            ContractCase("groups", "friends page by username, friend requests page newest first, each way round") { store in
                let names = ["me", "Echo", "alpha", "delta", "Bravo", "charlie"]
                let ids = try await store.addUsers(names[0], names[1], names[2], names[3], names[4], names[5])
                let me = ids[0]
                for (index, other) in ids.dropFirst().enumerated() {
                    if index % 2 == 0 {
                        try await store.groups.insertFriendRequest(from: other, to: me, now: Sample.at(index), notifications: [])
                    } else {
                        try await store.groups.insertFriendRequest(from: me, to: other, now: Sample.at(index), notifications: [])
                    }
                }
                // Incoming from Echo (0), delta (2), charlie (4); outgoing to alpha (1), Bravo (3).
                let incoming = try await allPages(limit: 2) { try await store.groups.friendRequests(userID: me, incoming: true, page: $0) }
                #expect(incoming.map(\.from.username) == ["charlie", "delta", "Echo"])
                #expect(incoming.allSatisfy { $0.to.id == me })
                #expect(incoming.map(\.createdAt) == [Sample.at(4), Sample.at(2), Sample.at(0)])
                let outgoing = try await allPages(limit: 1) { try await store.groups.friendRequests(userID: me, incoming: false, page: $0) }
                #expect(outgoing.map(\.to.username) == ["Bravo", "alpha"])
                #expect(outgoing.allSatisfy { $0.from.id == me })

                for (index, other) in ids.dropFirst().enumerated() {
                    let (from, to) = index % 2 == 0 ? (other, me) : (me, other)
                    #expect(try await store.groups.acceptFriendRequest(from: from, to: to, now: Sample.at(100)))
                }
                let friends = try await allPages(limit: 2) { try await store.groups.friends(of: me, page: $0) }
                #expect(friends.map(\.user.username) == ["alpha", "Bravo", "charlie", "delta", "Echo"])
                #expect(try await store.groups.friendRequests(userID: me, incoming: true, page: PageRequest()).items.isEmpty)

                // The cursor holds its place when a friend sorting before it arrives and a friend already shown leaves.
                let first = try await store.groups.friends(of: me, page: PageRequest(limit: 2))
                #expect(first.items.map(\.user.username) == ["alpha", "Bravo"])
                let aaron = try await store.addUsers("aaron")[0]
                try await store.groups.insertFriendRequest(from: aaron, to: me, now: Sample.at(200), notifications: [])
                #expect(try await store.groups.acceptFriendRequest(from: aaron, to: me, now: Sample.at(200)))
                #expect(try await store.groups.deleteFriendship(me, ids[2]))
                let second = try await store.groups.friends(of: me, page: try next(first, limit: 2))
                #expect(second.items.map(\.user.username) == ["charlie", "delta"])
            },
        ] + GroupRepositoryContract.groupCases + GroupRepositoryContract.alertCases
    }
}
