import Foundation

/// Stores notifications; other repositories write them inside their own transactions, so an event and its
/// notifications are committed together.
public protocol NotificationRepository: Sendable {
    /// The recipient's notifications, newest first (then by id), for the page asked.
    func notifications(recipientID: String, page: PageRequest) async throws -> Page<UserNotification>
    /// The recipient's notifications with these ids, in no particular order (ids of anyone else's, or of none, are left
    /// out).
    func notifications(ids: [String], recipientID: String) async throws -> [UserNotification]
    /// How many of the recipient's notifications are unread.
    func unreadCount(recipientID: String) async throws -> Int
    /// Marks one notification read (one read already keeps its first time); false when the recipient has none with that
    /// id, true when it was read already.
    func markRead(id: String, recipientID: String, now: Date) async throws -> Bool
    /// Marks every unread notification of the recipient read; returns how many changed.
    func markAllRead(recipientID: String, now: Date) async throws -> Int
}
