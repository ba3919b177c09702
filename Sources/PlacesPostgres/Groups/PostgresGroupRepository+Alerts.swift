import Foundation
import PlacesCore
import PostgresNIO

extension PostgresGroupRepository {
    public func insertAlert(_ alert: GroupAlert, limit: WindowLimit, notifications: [UserNotification]) async throws -> AlertInsert {
        let logger = database.logger
        return try await database.write { connection in
            // Shared with other alerts and new members, exclusive of the group's deletion: no alert outlives its group.
            guard
                try await connection.value("SELECT id FROM place_group WHERE id = \(alert.groupId) FOR KEY SHARE", as: String.self, logger: logger)
                    != nil
            else { return .noGroup }
            // One group's alerts are counted one at a time, whichever instance takes them: the bound is exact.
            try await connection.query(
                "SELECT pg_advisory_xact_lock(hashtextextended('places/alerts/' || \(alert.groupId), 0))",
                logger: logger
            )
            // The `allowed`-th newest alert in the window, when there is one, is the oldest that reaches the bound.
            if let oldest = try await connection.value(
                """
                SELECT created_at FROM group_alert WHERE group_id = \(alert.groupId) AND created_at >= \(Timestamp.text(limit.since))
                ORDER BY created_at DESC LIMIT 1 OFFSET \(max(limit.allowed - 1, 0))
                """,
                as: String.self,
                logger: logger
            ) {
                return .tooMany(oldestCounted: Timestamp.date(oldest) ?? limit.since)
            }
            try await connection.query(
                """
                INSERT INTO group_alert (id, group_id, sender_id, created_at)
                VALUES (\(alert.id), \(alert.groupId), \(alert.senderId), \(Timestamp.text(alert.createdAt)))
                """,
                logger: logger
            )
            try await PostgresNotificationRepository.insert(notifications, on: connection, database: database)
            return .stored
        }
    }
}
