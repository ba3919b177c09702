import Foundation
import GRDB
import PlacesCore

extension SQLiteAccountRepository {
    /// True for a row of `user_account` (as `user_account`) that a block stands between with the person bound to both
    /// parameters (none for an id no one has, such as the empty text).
    static let blockedEitherWay = """
        EXISTS (SELECT 1 FROM user_block k WHERE (k.blocker_id = ? AND k.blocked_id = user_account.id)
            OR (k.blocker_id = user_account.id AND k.blocked_id = ?))
        """

    public func block(blockerID: String, blockedID: String, now: Date) async throws {
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO user_block (blocker_id, blocked_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [blockerID, blockedID, Timestamp.text(now)]
            )
            try db.execute(
                sql: "DELETE FROM friendship WHERE \(SQLiteGroupRepository.pairCondition)",
                arguments: [blockerID, blockedID, blockedID, blockerID]
            )
            try db.execute(
                sql: "DELETE FROM group_invitation WHERE (inviter_id = ? AND invitee_id = ?) OR (inviter_id = ? AND invitee_id = ?)",
                arguments: [blockerID, blockedID, blockedID, blockerID]
            )
        }
    }

    public func unblock(blockerID: String, blockedID: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM user_block WHERE blocker_id = ? AND blocked_id = ?", arguments: [blockerID, blockedID])
        }
    }

    public func blocked(blockerID: String, page: PageRequest) async throws -> Page<BlockedUser> {
        let after = try Keyset([.init(sql: "u.username_key"), .init(sql: "u.id")], page: page)
        return try await database.read { db in
            try after.page(
                page,
                """
                SELECT u.*, b.created_at AS blocked_since
                FROM user_block b JOIN user_account u ON u.id = b.blocked_id
                WHERE b.blocker_id = ?
                """,
                arguments: [blockerID],
                in: db
            ) { row in
                let blocked = BlockedUser(user: PublicUser(SQLiteAccountRepository.user(row)), since: row.date("blocked_since"))
                return (blocked, [row["username_key"], row["id"]])
            }
        }
    }

    public func blocks(between first: String, _ second: String) async throws -> BlockBetween {
        try await database.read { db in
            let blockers = try String.fetchSet(
                db,
                sql: "SELECT blocker_id FROM user_block WHERE (blocker_id = ? AND blocked_id = ?) OR (blocker_id = ? AND blocked_id = ?)",
                arguments: [first, second, second, first]
            )
            return BlockBetween(firstBlocksSecond: blockers.contains(first), secondBlocksFirst: blockers.contains(second))
        }
    }

    public func blockers(of blockedID: String, among userIDs: [String]) async throws -> Set<String> {
        guard !userIDs.isEmpty else { return [] }
        return try await database.read { db in
            try String.fetchSet(
                db,
                sql: "SELECT blocker_id FROM user_block WHERE blocked_id = ? AND blocker_id IN (SELECT value FROM json_each(?))",
                arguments: [blockedID, SQLiteAccountRepository.jsonArray(userIDs)]
            )
        }
    }

    public func setStatus(_ status: UserStatus?, userID: String) async throws {
        try await database.write { db in
            guard let status else {
                try db.execute(sql: "DELETE FROM user_status WHERE user_id = ?", arguments: [userID])
                return
            }
            try db.execute(
                sql: """
                    INSERT INTO user_status (user_id, text, expires_at) VALUES (?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET text = excluded.text, expires_at = excluded.expires_at
                    """,
                arguments: [userID, status.text, status.expiresAt.map(Timestamp.text)]
            )
        }
    }

    public func statuses(of userIDs: [String], visibleTo viewerID: String, now: Date) async throws -> [String: UserStatus] {
        guard !userIDs.isEmpty else { return [:] }
        return try await database.readStatement { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT s.user_id, s.text, s.expires_at FROM user_status s
                    WHERE s.user_id IN (SELECT value FROM json_each(?)) AND (s.expires_at IS NULL OR s.expires_at > ?)
                        AND (s.user_id = ?
                            OR EXISTS (SELECT 1 FROM friendship f WHERE f.status = 'accepted'
                                AND ((f.requester_id = s.user_id AND f.addressee_id = ?) OR (f.requester_id = ? AND f.addressee_id = s.user_id)))
                            OR EXISTS (SELECT 1 FROM group_member a JOIN group_member b ON b.group_id = a.group_id
                                WHERE a.user_id = s.user_id AND b.user_id = ?))
                        AND NOT EXISTS (SELECT 1 FROM user_block k WHERE (k.blocker_id = s.user_id AND k.blocked_id = ?)
                            OR (k.blocker_id = ? AND k.blocked_id = s.user_id))
                    """,
                arguments: [
                    SQLiteAccountRepository.jsonArray(Array(Set(userIDs))), Timestamp.text(now), viewerID, viewerID, viewerID, viewerID,
                    viewerID, viewerID,
                ]
            )
            var found: [String: UserStatus] = [:]
            for row in rows {
                found[row["user_id"]] = UserStatus(text: row["text"], expiresAt: (row["expires_at"] as String?).flatMap(Timestamp.date))
            }
            return found
        }
    }

    /// The people `userID` blocks and their status, for an export, read inside the export's transaction.
    static func exportedBlocks(of userID: String, in db: Database) throws -> (blocked: [BlockedUser], status: UserStatus?) {
        let blocked = try Row.fetchAll(
            db,
            sql: """
                SELECT u.*, b.created_at AS blocked_since FROM user_block b JOIN user_account u ON u.id = b.blocked_id
                WHERE b.blocker_id = ? ORDER BY u.username_key, u.id
                """,
            arguments: [userID]
        ).map { row in BlockedUser(user: PublicUser(SQLiteAccountRepository.user(row)), since: row.date("blocked_since")) }
        let status = try Row.fetchOne(db, sql: "SELECT text, expires_at FROM user_status WHERE user_id = ?", arguments: [userID]).map {
            row in UserStatus(text: row["text"], expiresAt: (row["expires_at"] as String?).flatMap(Timestamp.date))
        }
        return (blocked, status)
    }
}
