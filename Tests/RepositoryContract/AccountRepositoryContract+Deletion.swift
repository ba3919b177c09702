import Foundation
import PlacesCore
import Testing

/// What every `AccountRepository` does when a user is deleted.
extension AccountRepositoryContract {
    static var deletionCases: [ContractCase] {
        [
            ContractCase("accounts", "deleting a user removes sessions, settings, favourites and ratings, keeps their places without owner") {
                store in
                let ids = try await store.addUsers("ann", "bob")
                let (ann, bob) = (ids[0], ids[1])
                try await store.places.insert(Sample.place("owned", owner: ann))
                try await store.places.seed([Sample.place("rated")])
                try await store.accounts.insert(session("a1", of: ann))
                try await store.accounts.save(UserSettings(), userID: ann, now: Sample.now)
                try await store.places.setFavorite(userID: ann, placeID: "rated", favorite: true, now: Sample.now)
                for (user, stars) in [(ann, 5), (bob, 2)] {
                    let rating = Rating(placeId: "rated", userId: user, stars: stars, review: nil, createdAt: Sample.now, updatedAt: Sample.now)
                    _ = try await store.places.save(rating)
                }
                let before = try await ChangeFeedContract.settled(store)

                try await store.accounts.delete(userID: ann)
                #expect(try await store.accounts.user(id: ann) == nil)
                #expect(try await store.accounts.user(login: .username("ann")) == nil)
                #expect(try await store.accounts.session(tokenHash: "a1") == nil)
                #expect(try await store.accounts.settings(userID: ann) == nil)
                #expect(try await store.places.favorites(userID: ann).isEmpty)
                #expect(try await store.accounts.export(userID: ann) == nil)
                let owned = try #require(try await store.places.place(id: "owned"))
                #expect(owned.ownerID == nil && owned.deletedAt == nil, "their places stay, without an owner")
                #expect(try await store.places.place(id: "rated")?.rating == RatingAggregate(count: 1, sum: 2))
                let changes = try #require(try await store.places.changes(since: before, limit: 10))
                let rated = changes.upserted.first { $0.id == "rated" }
                #expect(rated?.rating == RatingAggregate(count: 1, sum: 2), "the new aggregate reaches the change feed")
                #expect(try await store.accounts.user(id: bob) != nil)
            },
            ContractCase("accounts", "deleting a user ends their friendships, invitations, memberships, own collections and notifications") {
                store in
                let ids = try await store.addUsers("ann", "bob", "cy", "dee")
                let (ann, bob, cy, dee) = (ids[0], ids[1], ids[2], ids[3])
                try await store.places.seed([Sample.place("p1")])
                try await store.addGroup("g-alone", name: "Alone", creator: ann)
                try await store.addGroup("g-1", name: "Lunch", creator: ann, members: [cy], at: 1)
                try await store.addGroup("g-2", name: "Dinner", creator: dee, at: 2)
                try await store.groups.insertInvitation(groupID: "g-2", inviteeID: bob, inviterID: dee, now: Sample.at(3), notifications: [])
                try await store.groups.insertInvitation(groupID: "g-2", inviteeID: ann, inviterID: dee, now: Sample.at(3), notifications: [])
                #expect(try await store.groups.answerInvitation(groupID: "g-2", inviteeID: ann, accept: true, now: Sample.at(4)))
                try await store.groups.insertInvitation(groupID: "g-1", inviteeID: bob, inviterID: ann, now: Sample.at(5), notifications: [])
                try await store.groups.insertFriendRequest(
                    from: ann,
                    to: bob,
                    now: Sample.at(6),
                    notifications: [Sample.notification("n-1", to: ann, at: 6)]
                )
                try await store.groups.insertFriendRequest(from: dee, to: ann, now: Sample.at(6), notifications: [])
                #expect(try await store.groups.acceptFriendRequest(from: dee, to: ann, now: Sample.at(7)))
                try await store.collections.insert(CollectionRepositoryContract.collection("c-ann", name: "Ann's", owner: ann))
                try await store.collections.insert(CollectionRepositoryContract.collection("c-g1", name: "Lunch ideas", group: "g-1"))
                try await store.collections.add(placeID: "p1", to: "c-g1", at: nil, by: ann, now: Sample.at(8))

                try await store.accounts.delete(userID: ann)
                #expect(try await store.groups.friendship(ann, bob) == nil)
                #expect(try await store.groups.friendship(dee, ann) == nil)
                #expect(try await store.groups.pendingFriendRequestCount(requesterID: ann) == 0)
                #expect(try await store.groups.friendRequests(userID: bob, incoming: true, page: PageRequest()).items.isEmpty)
                #expect(try await store.groups.friends(of: dee, page: PageRequest()).items.isEmpty)
                #expect(try await store.groups.invitations(inviteeID: bob, page: PageRequest()).items.map(\.groupId) == ["g-2"])
                #expect(try await store.groups.pendingInvitationCount(inviterID: ann) == 0)
                #expect(try await store.groups.group(id: "g-alone") == nil, "a group left without members is deleted")
                let lunch = try #require(try await store.groups.group(id: "g-1"))
                #expect(lunch.members.map(\.user.id) == [cy] && lunch.role(of: cy) == .admin, "a group left without an admin gets one")
                let dinner = try #require(try await store.groups.group(id: "g-2"))
                #expect(dinner.members.map(\.user.id) == [dee] && dinner.role(of: dee) == .admin)
                #expect(try await store.collections.collection(id: "c-ann") == nil)
                #expect(
                    try await store.collections.entries(collectionID: "c-g1") == [CollectionEntry(placeID: "p1", addedBy: nil, addedAt: Sample.at(8))]
                )
                #expect(try await store.notifications.notifications(recipientID: ann, page: PageRequest()).items.isEmpty)
                #expect(try await store.notifications.unreadCount(recipientID: ann) == 0)
            },
        ]
    }
}
