import Foundation
import PlacesCore
import PostgresNIO

extension PostgresAccountRepository {
    public func block(blockerID: String, blockedID: String, now: Date) async throws {
        try await database.write { connection in
            // Waits for a request or an invitation between the two being stored (`refuseBlock`), so the deletes below see it.
            try await connection.execute(
                "SELECT id FROM user_account WHERE id = ANY(\([blockerID, blockedID])) ORDER BY id FOR NO KEY UPDATE",
                logger: database.logger
            )
            try await connection.execute(
                """
                INSERT INTO user_block (blocker_id, blocked_id, created_at) VALUES (\(blockerID), \(blockedID), \(Timestamp.text(now)))
                ON CONFLICT DO NOTHING
                """,
                logger: database.logger
            )
            try await connection.execute(
                """
                DELETE FROM friendship
                WHERE (requester_id = \(blockerID) AND addressee_id = \(blockedID)) OR (requester_id = \(blockedID) AND addressee_id = \(blockerID))
                """,
                logger: database.logger
            )
            try await connection.execute(
                """
                DELETE FROM group_invitation
                WHERE (inviter_id = \(blockerID) AND invitee_id = \(blockedID)) OR (inviter_id = \(blockedID) AND invitee_id = \(blockerID))
                """,
                logger: database.logger
            )
        }
    }

    /// Refuses (cause `blocked`) storing something between `first` and `second` when either blocks the other; their
    /// accounts' rows stay share-locked until the transaction ends, so a block being saved (which locks them for
    /// update) either waits for this one and then deletes what it stored, or is seen here.
    static func refuseBlock(between first: String, _ second: String, on connection: PostgresConnection, database: PostgresPlacesDatabase) async throws {
        try await connection.execute(
            "SELECT id FROM user_account WHERE id = ANY(\([first, second])) ORDER BY id FOR SHARE",
            logger: database.logger
        )
        let blocks = try await connection.execute(
            """
            SELECT 1 FROM user_block
            WHERE (blocker_id = \(first) AND blocked_id = \(second)) OR (blocker_id = \(second) AND blocked_id = \(first))
            """,
            logger: database.logger
        )
        if blocks > 0 { throw PlacesError(.conflict, "a block stands between the two", cause: .blocked) }
    }

    public func unblock(blockerID: String, blockedID: String) async throws {
        // One statement: a transaction of its own.
        _ = try await database.change { connection in
            try await connection.execute(
                "DELETE FROM user_block WHERE blocker_id = \(blockerID) AND blocked_id = \(blockedID)",
                logger: database.logger
            )
        }
    }

    public func blocked(blockerID: String, page: PageRequest) async throws -> Page<BlockedUser> {
        let after = try Keyset([.init(sql: "u.username_key"), .init(sql: "u.id")], page: page)
        let rows = try await database.read { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: PostgresGroupRepository.userColumns("u")), u.username_key, b.created_at AS blocked_since
                FROM user_block b JOIN user_account u ON u.id = b.blocked_id
                WHERE b.blocker_id = \(blockerID) AND \(after) \(orderBy: after) LIMIT \(page.fetchLimit)
                """,
                logger: database.logger
            )
        }
        return try page.page(rows) { row in
            let blocked = BlockedUser(user: try PostgresGroupRepository.publicUser(row), since: try row.date("blocked_since"))
            return (blocked, [try row.get("username_key"), try row.get("id")])
        }
    }

    public func blocks(between first: String, _ second: String) async throws -> BlockBetween {
        let rows = try await database.read { connection in
            try await connection.rows(
                """
                SELECT blocker_id FROM user_block
                WHERE (blocker_id = \(first) AND blocked_id = \(second)) OR (blocker_id = \(second) AND blocked_id = \(first))
                """,
                logger: database.logger
            )
        }
        let blockers = Set(try rows.map { row in try row.get("blocker_id", as: String.self) })
        return BlockBetween(firstBlocksSecond: blockers.contains(first), secondBlocksFirst: blockers.contains(second))
    }

    public func blockers(of blockedID: String, among userIDs: [String]) async throws -> Set<String> {
        guard !userIDs.isEmpty else { return [] }
        let rows = try await database.read { connection in
            try await connection.rows(
                "SELECT blocker_id FROM user_block WHERE blocked_id = \(blockedID) AND blocker_id = ANY(\(Array(Set(userIDs))))",
                logger: database.logger
            )
        }
        return Set(try rows.map { row in try row.get("blocker_id", as: String.self) })
    }

    public func setStatus(_ status: UserStatus?, userID: String) async throws {
        // One statement: a transaction of its own.
        _ = try await database.change { connection in
            guard let status else {
                return try await connection.execute("DELETE FROM user_status WHERE user_id = \(userID)", logger: database.logger)
            }
            return try await connection.execute(
                """
                INSERT INTO user_status (user_id, text, expires_at) VALUES (\(userID), \(status.text), \(status.expiresAt.map(Timestamp.text)))
                ON CONFLICT (user_id) DO UPDATE SET text = excluded.text, expires_at = excluded.expires_at
                """,
                logger: database.logger
            )
        }
    }

    public func statuses(of userIDs: [String], visibleTo viewerID: String, now: Date) async throws -> [String: UserStatus] {
        guard !userIDs.isEmpty else { return [:] }
        let rows = try await database.read { connection in
            try await connection.rows(
                """
                SELECT s.user_id, s.text, s.expires_at FROM user_status s
                WHERE s.user_id = ANY(\(Array(Set(userIDs)))) AND (s.expires_at IS NULL OR s.expires_at > \(Timestamp.text(now)))
                    AND (s.user_id = \(viewerID)
                        OR EXISTS (SELECT 1 FROM friendship f WHERE f.status = 'accepted'
                            AND ((f.requester_id = s.user_id AND f.addressee_id = \(viewerID))
                                OR (f.requester_id = \(viewerID) AND f.addressee_id = s.user_id)))
                        OR EXISTS (SELECT 1 FROM group_member a JOIN group_member b ON b.group_id = a.group_id
                            WHERE a.user_id = s.user_id AND b.user_id = \(viewerID)))
                    AND NOT EXISTS (SELECT 1 FROM user_block k WHERE (k.blocker_id = s.user_id AND k.blocked_id = \(viewerID))
                        OR (k.blocker_id = \(viewerID) AND k.blocked_id = s.user_id))
                """,
                logger: database.logger
            )
        }
        var found: [String: UserStatus] = [:]
        for row in rows {
            found[try row.get("user_id")] = try PostgresAccountRepository.status(row)
        }
        return found
    }

    /// The people `userID` blocks and their status, for an export, read inside the export's transaction.
    static func exportedBlocks(
        of userID: String,
        on connection: PostgresConnection,
        database: PostgresPlacesDatabase
    ) async throws -> (blocked: [BlockedUser], status: UserStatus?) {
        let blocked = try await connection.rows(
            """
            SELECT \(unescaped: PostgresGroupRepository.userColumns("u")), b.created_at AS blocked_since
            FROM user_block b JOIN user_account u ON u.id = b.blocked_id
            WHERE b.blocker_id = \(userID) ORDER BY u.username_key, u.id
            """,
            logger: database.logger
        ).map { row in BlockedUser(user: try PostgresGroupRepository.publicUser(row), since: try row.date("blocked_since")) }
        let status = try await connection.row("SELECT text, expires_at FROM user_status WHERE user_id = \(userID)", logger: database.logger)
            .map(PostgresAccountRepository.status)
        return (blocked, status)
    }

    /// A status from a row holding `user_status`'s `text` and `expires_at`.
    static func status(_ row: PostgresRandomAccessRow) throws -> UserStatus {
        UserStatus(text: try row.get("text"), expiresAt: try row.optionalDate("expires_at"))
    }
}
