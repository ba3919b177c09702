import Foundation
import GRDB
import PlacesCore

extension SQLiteGroupRepository {
    public func insertAlert(_ alert: GroupAlert, limit: WindowLimit, notifications: [UserNotification]) async throws -> AlertInsert {
        // One writer at a time: the count and the insert see every alert committed before them.
        try await database.write { db in
            guard try db.exists("SELECT 1 FROM place_group WHERE id = ?", arguments: [alert.groupId]) else { return .noGroup }
            // The `allowed`-th newest alert in the window, when there is one, is the oldest that reaches the bound.
            if let oldest = try String.fetchOne(
                db,
                sql: """
                    SELECT created_at FROM group_alert WHERE group_id = ? AND created_at >= ?
                    ORDER BY created_at DESC LIMIT 1 OFFSET ?
                    """,
                arguments: [alert.groupId, Timestamp.text(limit.since), max(limit.allowed - 1, 0)]
            ) {
                return .tooMany(oldestCounted: Timestamp.date(oldest) ?? limit.since)
            }
            try db.execute(
                sql: "INSERT INTO group_alert (id, group_id, sender_id, created_at) VALUES (?, ?, ?, ?)",
                arguments: [alert.id, alert.groupId, alert.senderId, Timestamp.text(alert.createdAt)]
            )
            try SQLiteNotificationRepository.insert(notifications, in: db)
            return .stored
        }
    }
}
