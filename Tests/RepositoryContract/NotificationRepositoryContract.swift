import Foundation
import PlacesCore
import Testing

/// What every `NotificationRepository` does with the notifications other repositories write.
enum NotificationRepositoryContract {
    static var cases: [ContractCase] {
        [
            ContractCase("notifications", "notifications written with requests, invitations and decisions page newest first, then by id") {
                store in
                let ids = try await store.addUsers("ann", "bob", "cy")
                let (ann, bob, cy) = (ids[0], ids[1], ids[2])
                try await store.addGroup("g-1", name: "Lunch", creator: ann)
                try await store.places.seed([Sample.place("p1"), Sample.place("p2")])
                let request = Sample.notification("n-a", to: bob, kind: .friendRequest, at: 10)
                try await store.groups.insertFriendRequest(from: ann, to: bob, now: Sample.at(10), notifications: [request])
                let invitation = Sample.notification("n-b", to: bob, kind: .groupInvitation, at: 20)
                try await store.groups.insertInvitation(
                    groupID: "g-1",
                    inviteeID: bob,
                    inviterID: ann,
                    now: Sample.at(20),
                    notifications: [invitation]
                )
                let started = [
                    Sample.notification("n-c", to: bob, kind: .decisionStarted, at: 30),
                    Sample.notification("n-d", to: bob, kind: .decisionStarted, at: 30),
                    Sample.notification("n-e", to: cy, kind: .decisionStarted, at: 30),
                ]
                try await store.decisions.insert(
                    Sample.decision("d-1", group: nil, by: ann, participants: [ann, bob, cy], at: 30),
                    notifications: started
                )

                let bobs = try await allPages(limit: 2) { try await store.notifications.notifications(recipientID: bob, page: $0) }
                #expect(bobs.map(\.id) == ["n-d", "n-c", "n-b", "n-a"])
                #expect(bobs.last == request)
                #expect(try await store.notifications.notifications(recipientID: cy, page: PageRequest()).items.map(\.id) == ["n-e"])
                #expect(try await store.notifications.notifications(recipientID: ann, page: PageRequest()).items.isEmpty)

                // A cursor holds its place when a newer notification arrives between pages.
                let first = try await store.notifications.notifications(recipientID: bob, page: PageRequest(limit: 2))
                let read = try #require(try await store.decisions.state(decisionID: "d-1"))
                var reminded = read
                reminded.notifications = [Sample.notification("n-f", to: bob, kind: .decisionReminder, at: 40)]
                #expect(try await store.decisions.save(reminded, replacing: read) != nil)
                let second = try await store.notifications.notifications(recipientID: bob, page: try next(first, limit: 2))
                #expect(second.items.map(\.id) == ["n-b", "n-a"] && second.nextCursor == nil)
                #expect(try await store.notifications.notifications(recipientID: bob, page: PageRequest(limit: 1)).items.map(\.id) == ["n-f"])
            },
            ContractCase("notifications", "unread notifications are counted, marked read one by one or all at once, only by their recipient") {
                store in
                let ids = try await store.addUsers("ann", "bob")
                let (ann, bob) = (ids[0], ids[1])
                let notices = (1...3).map { Sample.notification("n-\($0)", to: bob, kind: .decisionStarted, at: $0) }
                try await store.decisions.insert(Sample.decision("d-1", group: nil, by: ann, participants: [ann, bob]), notifications: notices)
                #expect(try await store.notifications.unreadCount(recipientID: bob) == 3)
                #expect(try await !store.notifications.markRead(id: "n-1", recipientID: ann, now: Sample.at(10)), "someone else's")
                #expect(try await !store.notifications.markRead(id: "n-ghost", recipientID: bob, now: Sample.at(10)))
                #expect(try await store.notifications.unreadCount(recipientID: bob) == 3)
                #expect(try await store.notifications.markRead(id: "n-1", recipientID: bob, now: Sample.at(10)))
                #expect(try await store.notifications.markRead(id: "n-1", recipientID: bob, now: Sample.at(11)), "already read is still theirs")
                #expect(try await store.notifications.unreadCount(recipientID: bob) == 2)
                let first = try await store.notifications.notifications(recipientID: bob, page: PageRequest()).items.first { $0.id == "n-1" }
                #expect(first?.readAt == Sample.at(10), "marking again keeps the first time")

                #expect(try await store.notifications.markAllRead(recipientID: bob, now: Sample.at(20)) == 2)
                #expect(try await store.notifications.markAllRead(recipientID: bob, now: Sample.at(21)) == 0)
                #expect(try await store.notifications.unreadCount(recipientID: bob) == 0)
                let all = try await store.notifications.notifications(recipientID: bob, page: PageRequest()).items
                #expect(all.map(\.readAt) == [Sample.at(20), Sample.at(20), Sample.at(10)])
                #expect(try await store.notifications.markAllRead(recipientID: ann, now: Sample.at(22)) == 0)
            },
            ContractCase("notifications", "a notification of a kind a newer release added is passed over in lists, counts and streams") {
                store in
                let ids = try await store.addUsers("ann", "bob")
                let (ann, bob) = (ids[0], ids[1])
                let started = Sample.notification("n-1", to: bob, kind: .decisionStarted, at: 10)
                try await store.decisions.insert(Sample.decision("d-1", group: nil, by: ann, participants: [ann, bob]), notifications: [started])
                // As a release with a kind this one does not know stores it, beside a known one.
                try await store.execute(
                    sql: """
                        INSERT INTO notification (id, recipient_id, kind, message, subject, channels, created_at, read_at)
                        VALUES ('n-2', '\(bob)', 'kindOfANewerRelease', 'From the future', '{"later":1}', '["push"]', '\(Timestamp.text(Sample.at(20)))', NULL)
                        """
                )
                #expect(try await store.notifications.notifications(recipientID: bob, page: PageRequest()).items.map(\.id) == ["n-1"])
                #expect(try await store.notifications.unreadCount(recipientID: bob) == 1)
                #expect(try await store.notifications.notifications(ids: ["n-1", "n-2"], recipientID: bob).map(\.id) == ["n-1"])
            },
        ]
    }
}
