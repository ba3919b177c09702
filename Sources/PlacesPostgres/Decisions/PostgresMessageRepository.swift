import Foundation
import PlacesCore
import PostgresNIO

/// Decisions' conversations in PostgreSQL.
public struct PostgresMessageRepository: MessageRepository {
    let database: PostgresPlacesDatabase

    public func insert(_ message: NewMessage, limit: WindowLimit) async throws -> MessageInsert {
        let logger = database.logger
        return try await database.write { connection in
            // Shared with other messages, exclusive of the save that ends the decision: no message is stored after it.
            let status = try await connection.value(
                "SELECT status FROM decision WHERE id = \(message.decisionId) FOR SHARE",
                as: String.self,
                logger: logger
            )
            guard status == Decision.Status.active.rawValue else { return .decisionEnded }
            // One author's messages are counted one at a time, whichever instance takes them: the bound is exact.
            try await connection.query(
                "SELECT pg_advisory_xact_lock(hashtextextended('places/messages/' || \(message.authorId), 0))",
                logger: logger
            )
            // The `allowed`-th newest message in the window, when there is one, is the oldest that reaches the bound.
            if let oldest = try await connection.value(
                """
                SELECT created_at FROM decision_message WHERE author_id = \(message.authorId)
                    AND created_at >= \(Timestamp.text(limit.since))
                ORDER BY created_at DESC LIMIT 1 OFFSET \(max(limit.allowed - 1, 0))
                """,
                as: String.self,
                logger: logger
            ) {
                return .tooMany(oldestCounted: Timestamp.date(oldest) ?? limit.since)
            }
            try await connection.query(
                """
                INSERT INTO decision_message (id, decision_id, author_id, text, created_at)
                VALUES (\(message.id), \(message.decisionId), \(message.authorId), \(message.text), \(Timestamp.text(message.createdAt)))
                """,
                logger: logger
            )
            return .stored
        }
    }

    public func messages(decisionID: String, readerID: String?, page: PageRequest) async throws -> Page<DecisionMessage> {
        let after = try Keyset([.init(sql: "m.created_at", descending: true), .init(sql: "m.id", descending: true)], page: page)
        let rows = try await database.read { [logger = database.logger] connection in
            try await connection.rows(
                """
                \(unescaped: PostgresMessageRepository.select) WHERE m.decision_id = \(decisionID)
                    AND NOT EXISTS (SELECT 1 FROM user_block k WHERE k.blocker_id = \(readerID ?? "") AND k.blocked_id = m.author_id)
                    AND \(after) \(orderBy: after)
                LIMIT \(page.fetchLimit)
                """,
                logger: logger
            )
        }
        return try page.page(rows) { row in
            (try PostgresMessageRepository.message(row), [try row.get("created_at"), try row.get("id")])
        }
    }

    public func messages(ids: [String], decisionID: String, readerID: String?) async throws -> [DecisionMessage] {
        let rows = try await database.read { [logger = database.logger] connection in
            try await connection.rows(
                """
                \(unescaped: PostgresMessageRepository.select) WHERE m.decision_id = \(decisionID) AND m.id = ANY(\(ids))
                    AND NOT EXISTS (SELECT 1 FROM user_block k WHERE k.blocker_id = \(readerID ?? "") AND k.blocked_id = m.author_id)
                ORDER BY m.created_at DESC, m.id DESC
                """,
                logger: logger
            )
        }
        return try rows.map(PostgresMessageRepository.message)
    }

    public func messages(authorID: String) async throws -> [DecisionMessage] {
        let rows = try await database.read { [logger = database.logger] connection in
            try await connection.rows(
                "\(unescaped: PostgresMessageRepository.select) WHERE m.author_id = \(authorID) ORDER BY m.created_at, m.id",
                logger: logger
            )
        }
        return try rows.map(PostgresMessageRepository.message)
    }

    /// Messages with their authors' usernames.
    private static let select = """
        SELECT m.id, m.decision_id, m.author_id, u.username, m.text, m.created_at
        FROM decision_message AS m JOIN user_account AS u ON u.id = m.author_id
        """

    private static func message(_ row: PostgresRandomAccessRow) throws -> DecisionMessage {
        DecisionMessage(
            id: try row.get("id"),
            decisionId: try row.get("decision_id"),
            author: PublicUser(id: try row.get("author_id"), username: try row.get("username"), profile: User.Profile()),
            text: try row.get("text"),
            createdAt: Timestamp.date(try row.get("created_at")) ?? Date(timeIntervalSince1970: 0)
        )
    }
}

extension PostgresPlacesDatabase {
    /// The conversation repository over this database.
    public var messages: PostgresMessageRepository { PostgresMessageRepository(database: self) }
}
