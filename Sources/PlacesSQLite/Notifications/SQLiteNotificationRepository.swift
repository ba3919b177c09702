import Foundation
import GRDB
import PlacesCore

/// Notifications in SQLite. Other repositories store them with `insert(_:in:)` inside their own transactions.
public struct SQLiteNotificationRepository: NotificationRepository {
    let database: PlacesDatabase

    /// True for a notification its recipient reads: of a kind this release knows, and not about someone the recipient
    /// blocks.
    static let readable = """
        kind IN (\(UserNotification.Kind.sqlList)) AND NOT EXISTS (SELECT 1 FROM user_block k
            WHERE k.blocker_id = notification.recipient_id AND k.blocked_id = notification.subject ->> '$.userId')
        """

    public func notifications(recipientID: String, page: PageRequest) async throws -> Page<UserNotification> {
        let after = try Keyset([.init(sql: "created_at", descending: true), .init(sql: "id", descending: true)], page: page)
        return try await database.readStatement { db in
            try after.page(page, "SELECT * FROM notification WHERE recipient_id = ? AND \(SQLiteNotificationRepository.readable)", arguments: [recipientID], in: db) { row in
                (try SQLiteNotificationRepository.notification(row), [row["created_at"], row["id"]])
            }
        }
    }

    public func notifications(ids: [String], recipientID: String) async throws -> [UserNotification] {
        try await database.readStatement { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM notification
                    WHERE recipient_id = ? AND \(SQLiteNotificationRepository.readable) AND id IN (SELECT value FROM json_each(?))
                    """,
                arguments: [recipientID, SQLiteAccountRepository.jsonArray(ids)]
            ).map(SQLiteNotificationRepository.notification)
        }
    }

    public func unreadCount(recipientID: String) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(
                db,
                sql: "SELECT count(*) FROM notification WHERE recipient_id = ? AND read_at IS NULL AND \(SQLiteNotificationRepository.readable)",
                arguments: [recipientID]
            ) ?? 0
        }
    }

    public func markRead(id: String, recipientID: String, now: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE notification SET read_at = ? WHERE id = ? AND recipient_id = ? AND read_at IS NULL",
                arguments: [Timestamp.text(now), id, recipientID]
            )
            if db.changesCount > 0 { return true }
            // Already read counts as done; only someone else's or an unknown id is "none".
            return try db.exists("SELECT 1 FROM notification WHERE id = ? AND recipient_id = ?", arguments: [id, recipientID])
        }
    }

    public func markAllRead(recipientID: String, now: Date) async throws -> Int {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE notification SET read_at = ? WHERE recipient_id = ? AND read_at IS NULL",
                arguments: [Timestamp.text(now), recipientID]
            )
            return db.changesCount
        }
    }

    /// Stores `notifications` in the caller's transaction, so they commit (or roll back) with the event they tell of.
    /// One statement however many there are: the rows travel as one JSON array (a decision's result notifies every
    /// participant).
    static func insert(_ notifications: [UserNotification], in db: Database) throws {
        guard !notifications.isEmpty else { return }
        let encoder = PlacesJSON.makeEncoder()
        let rows = try notifications.map { notification in
            NotificationRow(
                id: notification.id,
                recipientId: notification.recipientId,
                kind: notification.kind.rawValue,
                message: notification.message,
                subject: String(decoding: try encoder.encode(notification.subject), as: UTF8.self),
                channels: String(decoding: try encoder.encode(notification.channels), as: UTF8.self),
                createdAt: Timestamp.text(notification.createdAt),
                readAt: notification.readAt.map(Timestamp.text)
            )
        }
        try db.execute(
            sql: """
                INSERT INTO notification (id, recipient_id, kind, message, subject, channels, created_at, read_at)
                SELECT value ->> '$.id', value ->> '$.recipientId', value ->> '$.kind', value ->> '$.message',
                       value ->> '$.subject', value ->> '$.channels', value ->> '$.createdAt', value ->> '$.readAt'
                FROM json_each(?) ORDER BY key
                """,
            arguments: [String(decoding: try JSONEncoder().encode(rows), as: UTF8.self)]
        )
    }

    /// A notification as its table holds it, for the one-statement insert.
    private struct NotificationRow: Encodable {
        var id, recipientId, kind, message, subject, channels, createdAt: String
        var readAt: String?
    }

    static func notification(_ row: Row) throws -> UserNotification {
        let readAt: String? = row["read_at"]
        return try StoredText.decodeNotification(
            id: row["id"],
            recipientID: row["recipient_id"],
            kind: row["kind"],
            message: row["message"],
            subject: row["subject"],
            channels: row["channels"],
            createdAt: row.date("created_at"),
            readAt: readAt.flatMap(Timestamp.date)
        )
    }
}

extension PlacesDatabase {
    /// The notification repository over this database.
    public var notifications: SQLiteNotificationRepository { SQLiteNotificationRepository(database: self) }
}
