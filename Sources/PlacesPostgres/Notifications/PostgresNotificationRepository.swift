import Foundation
import PlacesCore
import PostgresNIO

/// Notifications in PostgreSQL. Other repositories store them with `insert(_:on:)` inside their own transactions.
public struct PostgresNotificationRepository: NotificationRepository {
    let database: PostgresPlacesDatabase

    /// True for a notification its recipient reads: of a kind this release knows, and not about someone the recipient
    /// blocks.
    static let readable = """
        kind IN (\(UserNotification.Kind.sqlList)) AND NOT EXISTS (SELECT 1 FROM user_block k
            WHERE k.blocker_id = notification.recipient_id AND k.blocked_id = (notification.subject::jsonb ->> 'userId'))
        """

    public func notifications(recipientID: String, page: PageRequest) async throws -> Page<UserNotification> {
        let after = try Keyset([.init(sql: "created_at", descending: true), .init(sql: "id", descending: true)], page: page)
        let rows = try await database.read { connection in
            try await connection.rows(
                """
                SELECT * FROM notification WHERE recipient_id = \(recipientID) AND \(unescaped: PostgresNotificationRepository.readable)
                    AND \(after) \(orderBy: after) LIMIT \(page.fetchLimit)
                """,
                logger: database.logger
            )
        }
        return try page.page(rows) { row in
            (try PostgresNotificationRepository.notification(row), [try row.get("created_at"), try row.get("id")])
        }
    }

    public func notifications(ids: [String], recipientID: String) async throws -> [UserNotification] {
        let rows = try await database.read { connection in
            try await connection.rows(
                "SELECT * FROM notification WHERE recipient_id = \(recipientID) AND \(unescaped: PostgresNotificationRepository.readable) AND id = ANY(\(ids))",
                logger: database.logger
            )
        }
        return try rows.map(PostgresNotificationRepository.notification)
    }

    public func unreadCount(recipientID: String) async throws -> Int {
        try await database.count(
            "SELECT count(*) FROM notification WHERE recipient_id = \(recipientID) AND read_at IS NULL AND \(unescaped: PostgresNotificationRepository.readable)"
        )
    }

    public func markRead(id: String, recipientID: String, now: Date) async throws -> Bool {
        try await database.change { connection in
            // Already read counts as done; only someone else's or an unknown id is "none".
            try await connection.value(
                """
                WITH marked AS (
                    UPDATE notification SET read_at = \(Timestamp.text(now))
                    WHERE id = \(id) AND recipient_id = \(recipientID) AND read_at IS NULL
                    RETURNING 1
                )
                SELECT EXISTS (SELECT 1 FROM marked) OR EXISTS (SELECT 1 FROM notification WHERE id = \(id) AND recipient_id = \(recipientID))
                """,
                as: Bool.self,
                logger: database.logger
            ) ?? false
        }
    }

    public func markAllRead(recipientID: String, now: Date) async throws -> Int {
        try await database.change { connection in
            try await connection.execute(
                "UPDATE notification SET read_at = \(Timestamp.text(now)) WHERE recipient_id = \(recipientID) AND read_at IS NULL",
                logger: database.logger
            )
        }
    }

    /// Stores `notifications` in the caller's transaction, so they commit (or roll back) with the event they tell of.
    /// One statement however many there are: each column travels as one array (a decision's result notifies every
    /// participant).
    static func insert(_ notifications: [UserNotification], on connection: PostgresConnection, database: PostgresPlacesDatabase)
        async throws
    {
        guard !notifications.isEmpty else { return }
        let columns = try NotificationColumns(notifications)
        try await connection.execute(
            """
            SELECT places_insert_notifications(\(columns.ids), \(columns.recipients), \(columns.kinds), \(columns.messages),
                \(columns.subjects), \(columns.channels), \(columns.created), \(columns.read))
            """,
            logger: database.logger
        )
    }

    /// Notifications as the columns `places_insert_notifications` takes, one array a column, in order.
    struct NotificationColumns {
        let ids: [String]
        let recipients: [String]
        let kinds: [String]
        let messages: [String]
        let subjects: [String]
        let channels: [String]
        let created: [String]
        /// An array travels without NULLs: an unread notification's time is empty text, NULL again in the table.
        let read: [String]

        init(_ notifications: [UserNotification]) throws {
            let encoder = PlacesJSON.makeEncoder()
            func json(_ value: some Encodable) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
            ids = notifications.map(\.id)
            recipients = notifications.map(\.recipientId)
            kinds = notifications.map(\.kind.rawValue)
            messages = notifications.map(\.message)
            subjects = try notifications.map { try json($0.subject) }
            channels = try notifications.map { try json($0.channels) }
            created = notifications.map { Timestamp.text($0.createdAt) }
            read = notifications.map { $0.readAt.map(Timestamp.text) ?? "" }
        }
    }

    static func notification(_ row: PostgresRandomAccessRow) throws -> UserNotification {
        try StoredText.decodeNotification(
            id: try row.get("id"),
            recipientID: try row.get("recipient_id"),
            kind: try row.get("kind"),
            message: try row.get("message"),
            subject: try row.get("subject"),
            channels: try row.get("channels"),
            createdAt: try row.date("created_at"),
            readAt: try row.optionalDate("read_at")
        )
    }
}

extension PostgresPlacesDatabase {
    /// The notification repository over this database.
    public var notifications: PostgresNotificationRepository { PostgresNotificationRepository(database: self) }
}
