import Foundation
import PlacesCore
import Testing

/// What every `GroupRepository` does with groups, members and invitations.
extension GroupRepositoryContract {
    static var groupCases: [ContractCase] {
        [
            ContractCase("groups", "a new group has its creator as its only member, an admin; it is saved, listed and deleted") { store in
                let ids = try await store.addUsers("ann", "bob")
                let (ann, bob) = (ids[0], ids[1])
                try await store.addGroup("g-1", name: "Lunch", creator: ann, at: 5)
                let group = try #require(try await store.groups.group(id: "g-1"))
                #expect(group.name == "Lunch" && group.description == "About Lunch" && group.createdAt == Sample.at(5))
                #expect(group.members.map(\.user.id) == [ann] && group.role(of: ann) == .admin)
                #expect(group.members.map(\.joinedAt) == [Sample.at(5)])
                #expect(try await store.groups.group(id: "g-ghost") == nil)
                #expect(try await store.groups.groupIDs(memberID: ann) == ["g-1"])
                #expect(try await store.groups.groupIDs(memberID: bob).isEmpty)

                var changed = group
                changed.name = "Dinner"
                changed.description = nil
                changed.pictureURL = "https://example.com/g.png"
                changed.updatedAt = Sample.at(9)
                try await store.groups.update(changed)
                #expect(try await store.groups.group(id: "g-1") == changed)

                try await store.groups.insertInvitation(groupID: "g-1", inviteeID: bob, inviterID: ann, now: Sample.at(10), notifications: [])
                let collection = PlaceCollection(
                    id: "c-1",
                    ownerId: nil,
                    groupId: "g-1",
                    name: "Ideas",
                    description: nil,
                    createdAt: Sample.now,
                    updatedAt: Sample.now
                )
                try await store.collections.insert(collection)
                try await store.groups.deleteGroup(id: "g-1")
                #expect(try await store.groups.group(id: "g-1") == nil)
                #expect(try await store.groups.groupIDs(memberID: ann).isEmpty)
                #expect(try await store.groups.invitations(inviteeID: bob, page: PageRequest()).items.isEmpty)
                #expect(try await store.groups.pendingInvitationCount(inviterID: ann) == 0)
                #expect(try await store.collections.collection(id: "c-1") == nil, "the group's collections go with it")
            },
            ContractCase("groups", "groups page by name for a member, and a cursor holds its place when groups come and go") { store in
                let ids = try await store.addUsers("ann", "bob")
                let (ann, bob) = (ids[0], ids[1])
                for (id, name) in [("g-1", "delta"), ("g-2", "Alpha"), ("g-3", "charlie"), ("g-4", "Bravo"), ("g-5", "echo")] {
                    try await store.addGroup(id, name: name, creator: ann)
                }
                try await store.addGroup("g-6", name: "Bob's", creator: bob)
                let all = try await allPages(limit: 2) { try await store.groups.groups(memberID: ann, page: $0) }
                #expect(all.map(\.name) == ["Alpha", "Bravo", "charlie", "delta", "echo"])
                #expect(all.allSatisfy { $0.role(of: ann) == .admin })
                #expect(try await store.groups.groupIDs(memberID: ann).sorted() == ["g-1", "g-2", "g-3", "g-4", "g-5"])

                let first = try await store.groups.groups(memberID: ann, page: PageRequest(limit: 2))
                try await store.addGroup("g-7", name: "Aardvark", creator: ann)
                try await store.groups.deleteGroup(id: "g-2")
                let second = try await store.groups.groups(memberID: ann, page: try next(first, limit: 2))
                #expect(second.items.map(\.name) == ["charlie", "delta"])
                // A cursor of another list is refused, not misread.
                let users = try await store.accounts.searchUsers("", page: PageRequest(limit: 1))
                let foreign = try next(users, limit: 2)
                await expectError(.invalidInput, field: "cursor") { _ = try await store.groups.groups(memberID: ann, page: foreign) }
            },
            ContractCase("groups", "an invitation is stored with its notifications, refused twice with conflict, and answered once") { store in
                let ids = try await store.addUsers("ann", "bob", "cy")
                let (ann, bob, cy) = (ids[0], ids[1], ids[2])
                try await store.addGroup("g-1", name: "Lunch", creator: ann)
                try await store.addGroup("g-2", name: "Dinner", creator: ann)
                let notice = Sample.notification("n-1", to: bob, kind: .groupInvitation, at: 1, subject: UserNotification.Subject(groupId: "g-1"))
                try await store.groups.insertInvitation(groupID: "g-1", inviteeID: bob, inviterID: ann, now: Sample.at(1), notifications: [notice])
                try await store.groups.insertInvitation(groupID: "g-2", inviteeID: bob, inviterID: ann, now: Sample.at(2), notifications: [])
                #expect(try await store.notifications.notifications(recipientID: bob, page: PageRequest()).items == [notice])
                await expectError(.conflict) {
                    try await store.groups.insertInvitation(groupID: "g-1", inviteeID: bob, inviterID: ann, now: Sample.at(3), notifications: [])
                }
                #expect(try await store.groups.pendingInvitationCount(inviterID: ann) == 2)
                let invitations = try await allPages(limit: 1) { try await store.groups.invitations(inviteeID: bob, page: $0) }
                #expect(invitations.map(\.groupId) == ["g-2", "g-1"], "newest first")
                #expect(invitations.map(\.groupName) == ["Dinner", "Lunch"])
                #expect(invitations.allSatisfy { $0.invitee.id == bob && $0.invitedBy.id == ann })

                #expect(try await store.groups.answerInvitation(groupID: "g-1", inviteeID: bob, accept: true, now: Sample.at(4)))
                #expect(try await !store.groups.answerInvitation(groupID: "g-1", inviteeID: bob, accept: true, now: Sample.at(5)))
                let group = try #require(try await store.groups.group(id: "g-1"))
                #expect(group.role(of: bob) == .member)
                #expect(group.members.first { $0.user.id == bob }?.joinedAt == Sample.at(4))
                #expect(try await !store.groups.answerInvitation(groupID: "g-1", inviteeID: cy, accept: true, now: Sample.at(5)))
                #expect(try await store.groups.group(id: "g-1")?.role(of: cy) == nil)

                #expect(try await store.groups.answerInvitation(groupID: "g-2", inviteeID: bob, accept: false, now: Sample.at(6)))
                #expect(try await store.groups.group(id: "g-2")?.role(of: bob) == nil)
                #expect(try await store.groups.lastDeclined(.groupInvitation, subjectID: "g-2", recipientID: bob) == Sample.at(6))
                #expect(try await store.groups.lastDeclined(.groupInvitation, subjectID: "g-1", recipientID: bob) == nil)
                #expect(try await store.groups.invitations(inviteeID: bob, page: PageRequest()).items.isEmpty)
                #expect(try await store.groups.pendingInvitationCount(inviterID: ann) == 0)
            },
            ContractCase("groups", "roles are set, a leaving member can promote a successor, and the last one leaving deletes the group") {
                store in
                let ids = try await store.addUsers("ann", "bob", "cy")
                let (ann, bob, cy) = (ids[0], ids[1], ids[2])
                try await store.addGroup("g-1", name: "Lunch", creator: ann, members: [bob, cy])
                try await store.groups.setRole(groupID: "g-1", userID: cy, role: .admin)
                #expect(try await store.groups.group(id: "g-1")?.role(of: cy) == .admin)
                try await store.groups.setRole(groupID: "g-1", userID: cy, role: .member)
                #expect(try await store.groups.group(id: "g-1")?.adminCount == 1)

                try await store.groups.removeMember(groupID: "g-1", userID: ann, promoting: bob)
                var group = try #require(try await store.groups.group(id: "g-1"))
                #expect(Set(group.members.map(\.user.id)) == [bob, cy])
                #expect(group.role(of: bob) == .admin && group.role(of: cy) == .member)
                #expect(try await store.groups.groupIDs(memberID: ann).isEmpty)

                try await store.groups.removeMember(groupID: "g-1", userID: cy, promoting: nil)
                group = try #require(try await store.groups.group(id: "g-1"))
                #expect(group.members.map(\.user.id) == [bob])
                try await store.groups.removeMember(groupID: "g-1", userID: bob, promoting: nil)
                #expect(try await store.groups.group(id: "g-1") == nil, "nobody is left")
                #expect(try await store.groups.groupIDs(memberID: bob).isEmpty)
            },
        ]
    }
}
