import Foundation
import GRDB
import PlacesCore

/// Decisions' conversations in SQLite.
public struct SQLiteMessageRepository: MessageRepository {
    let database: PlacesDatabase

    public func insert(_ message: NewMessage, limit: WindowLimit) async throws -> MessageInsert {
        try await database.write { db in
            guard try db.exists("SELECT 1 FROM decision WHERE id = ? AND status = 'active'", arguments: [message.decisionId]) else {
                return .decisionEnded
            }
            if let oldest = try limit.oldestCounted(in: "decision_message", where: "author_id", is: message.authorId, db) {
                return .tooMany(oldestCounted: oldest)
            }
            try db.execute(
                sql: "INSERT INTO decision_message (id, decision_id, author_id, text, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [message.id, message.decisionId, message.authorId, message.text, Timestamp.text(message.createdAt)]
            )
            return .stored
        }
    }

    public func messages(decisionID: String, readerID: String?, page: PageRequest) async throws -> Page<DecisionMessage> {
        let after = try Keyset([.init(sql: "m.created_at", descending: true), .init(sql: "m.id", descending: true)], page: page)
        return try await database.readStatement { db in
            try after.page(
                page,
                "\(SQLiteMessageRepository.select) WHERE m.decision_id = ? AND \(SQLiteMessageRepository.unblocked)",
                arguments: [decisionID, readerID ?? ""],
                in: db
            ) { row in
                (SQLiteMessageRepository.message(row), [row["created_at"], row["id"]])
            }
        }
    }

    public func messages(ids: [String], decisionID: String, readerID: String?) async throws -> [DecisionMessage] {
        try await database.readStatement { db in
            try Row.fetchAll(
                db,
                sql: """
                    \(SQLiteMessageRepository.select)
                    WHERE m.decision_id = ? AND m.id IN (SELECT value FROM json_each(?)) AND \(SQLiteMessageRepository.unblocked)
                    ORDER BY m.created_at DESC, m.id DESC
                    """,
                arguments: [decisionID, SQLiteAccountRepository.jsonArray(ids), readerID ?? ""]
            ).map(SQLiteMessageRepository.message)
        }
    }

    public func messages(authorID: String) async throws -> [DecisionMessage] {
        try await database.readStatement { db in
            try Row.fetchAll(
                db,
                sql: "\(SQLiteMessageRepository.select) WHERE m.author_id = ? ORDER BY m.created_at, m.id",
                arguments: [authorID]
            ).map(SQLiteMessageRepository.message)
        }
    }

    /// True for a message whose author the reader (the parameter; the empty text for nobody) does not block.
    private static let unblocked = "NOT EXISTS (SELECT 1 FROM user_block k WHERE k.blocker_id = ? AND k.blocked_id = m.author_id)"

    /// Messages with their authors' usernames.
    private static let select = """
        SELECT m.id, m.decision_id, m.author_id, u.username, m.text, m.created_at
        FROM decision_message AS m JOIN user_account AS u ON u.id = m.author_id
        """

    private static func message(_ row: Row) -> DecisionMessage {
        DecisionMessage(
            id: row["id"],
            decisionId: row["decision_id"],
            author: PublicUser(id: row["author_id"], username: row["username"], profile: User.Profile()),
            text: row["text"],
            createdAt: row.date("created_at")
        )
    }
}

extension PlacesDatabase {
    /// The conversation repository over this database.
    public var messages: SQLiteMessageRepository { SQLiteMessageRepository(database: self) }
}
