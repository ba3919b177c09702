import Foundation

/// A person's notifications: the list with its unread count, and marking them read.
public struct NotificationService: Sendable {
    let repository: any NotificationRepository
    let clock: @Sendable () -> Date

    /// One page of the caller's notifications, newest first, and how many are unread in all.
    public func list(recipientID: String, page: PageRequest) async throws -> NotificationPage {
        let items = try await repository.notifications(recipientID: recipientID, page: page)
        return NotificationPage(
            items: items.items,
            nextCursor: items.nextCursor,
            unreadCount: try await repository.unreadCount(recipientID: recipientID)
        )
    }

    /// The recipient's notifications with these ids, in no particular order (others' are left out).
    public func notifications(ids: [String], recipientID: String) async throws -> [UserNotification] {
        try await repository.notifications(ids: ids, recipientID: recipientID)
    }

    /// Marks one of the caller's notifications read (`not_found` for anyone else's).
    public func markRead(id: String, recipientID: String) async throws {
        guard try await repository.markRead(id: id, recipientID: recipientID, now: clock()) else {
            throw PlacesError.notFound("no notification with id \(PlacesError.quoted(id))")
        }
    }

    /// Marks all of the caller's notifications read; returns how many changed.
    public func markAllRead(recipientID: String) async throws -> Int {
        try await repository.markAllRead(recipientID: recipientID, now: clock())
    }
}

/// A page of notifications with the unread count.
public struct NotificationPage: Sendable, Encodable {
    public var items: [UserNotification]
    public var nextCursor: String?
    public var unreadCount: Int
}
