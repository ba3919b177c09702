import Foundation
import GRDB
import PlacesCore

extension SQLiteGroupRepository {
    public func insertAlert(_ alert: GroupAlert, limit: WindowLimit, notifications: [UserNotification]) async throws -> AlertInsert {
        // One writer at a time: the count and the insert see every alert committed before them.
        try await database.write { db in
            guard try db.exists("SELECT 1 FROM place_group WHERE id = ?", arguments: [alert.groupId]) else { return .noGroup }
            if let oldest = try limit.oldestCounted(in: "group_alert", where: "group_id", is: alert.groupId, db) {
                return .tooMany(oldestCounted: oldest)
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
