import Foundation
import PlacesCore
import Testing

/// What every `GroupRepository` does with admins' alerts: the bound a group an hour counted in the database, exactly
/// when alerts arrive at once, and the notifications stored with an alert.
extension GroupRepositoryContract {
    static func alert(_ id: String, to group: String = "g-1", by sender: String, at seconds: Int) -> GroupAlert {
        GroupAlert(id: id, groupId: group, senderId: sender, createdAt: Sample.at(seconds))
    }

    /// A bound of `allowed` alerts in the hour before `seconds`.
    static func alertBound(_ allowed: Int, at seconds: Int) -> WindowLimit {
        WindowLimit(allowed: allowed, since: Sample.at(seconds - 3_600))
    }

    static var alertCases: [ContractCase] {
        [
            ContractCase("groups", "an alert is stored with its notifications while its group is under the bound an hour") { store in
                let ids = try await store.addUsers("ann", "bob", "cy")
                let (ann, bob, cy) = (ids[0], ids[1], ids[2])
                try await store.addGroup("g-1", name: "Lunch", creator: ann, members: [bob])
                try await store.addGroup("g-2", name: "Walks", creator: cy)
                let notice = Sample.notification("n-1", to: bob, kind: .adminAlert, at: 10, subject: .init(userId: ann, groupId: "g-1"))
                #expect(
                    try await store.groups.insertAlert(alert("a-1", by: ann, at: 10), limit: alertBound(2, at: 10), notifications: [notice])
                        == .stored
                )
                #expect(try await store.notifications.notifications(recipientID: bob, page: PageRequest()).items == [notice])
                #expect(try await store.feedRows().contains(FeedRow("notification", bob, "n-1")), "it reaches the stream as any notification")
                #expect(try await store.groups.insertAlert(alert("a-2", by: bob, at: 20), limit: alertBound(2, at: 20), notifications: []) == .stored)

                // The bound is the group's, whoever sends: the oldest alert that reaches it is named, and nothing is stored.
                let refused = Sample.notification("n-2", to: bob, kind: .adminAlert, at: 30)
                #expect(
                    try await store.groups.insertAlert(alert("a-3", by: ann, at: 30), limit: alertBound(2, at: 30), notifications: [refused])
                        == .tooMany(oldestCounted: Sample.at(10))
                )
                #expect(try await store.notifications.notifications(recipientID: bob, page: PageRequest()).items == [notice])
                #expect(
                    try await store.groups.insertAlert(alert("a-4", to: "g-2", by: cy, at: 30), limit: alertBound(2, at: 30), notifications: [])
                        == .stored
                )
                // Once the first is more than an hour old, one more fits.
                #expect(
                    try await store.groups.insertAlert(alert("a-5", by: ann, at: 3_611), limit: alertBound(2, at: 3_611), notifications: [])
                        == .stored
                )
                #expect(
                    try await store.groups.insertAlert(alert("a-6", by: ann, at: 3_612), limit: alertBound(2, at: 3_612), notifications: [])
                        == .tooMany(oldestCounted: Sample.at(20))
                )

                // A group that no longer exists takes none; the sender's account leaving keeps the count.
                #expect(
                    try await store.groups.insertAlert(alert("a-7", to: "g-ghost", by: ann, at: 40), limit: alertBound(9, at: 40), notifications: [])
                        == .noGroup
                )
                try await store.accounts.delete(userID: bob)
                #expect(
                    try await store.groups.insertAlert(alert("a-8", by: ann, at: 3_620), limit: alertBound(2, at: 3_620), notifications: [])
                        == .tooMany(oldestCounted: Sample.at(20))
                )
                try await store.groups.deleteGroup(id: "g-1")
                #expect(
                    try await store.groups.insertAlert(alert("a-9", by: ann, at: 3_630), limit: alertBound(2, at: 3_630), notifications: [])
                        == .noGroup
                )
            },
            ContractCase("groups", "one group's alerts sent at once are counted one at a time: the bound holds exactly") { store in
                let ids = try await store.addUsers("ann", "bob")
                try await store.addGroup("g-1", name: "Lunch", creator: ids[0], members: [ids[1]])
                let outcomes = try await withThrowingTaskGroup(of: AlertInsert.self) { group in
                    for index in 1...14 {
                        group.addTask {
                            let notice = Sample.notification("n-\(index)", to: ids[1], kind: .adminAlert, at: 10)
                            return try await store.groups.insertAlert(
                                alert("a-\(index)", by: ids[0], at: 10),
                                limit: alertBound(10, at: 10),
                                notifications: [notice]
                            )
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 == .stored }.count == 10)
                #expect(outcomes.filter { $0 == .tooMany(oldestCounted: Sample.at(10)) }.count == 4)
                #expect(try await store.notifications.unreadCount(recipientID: ids[1]) == 10, "the refused alerts' notifications are not stored")
            },
        ]
    }
}
