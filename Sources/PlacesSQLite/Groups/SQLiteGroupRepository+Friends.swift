import Foundation
import GRDB
import PlacesCore

extension SQLiteGroupRepository {
    /// Matches the one row of a pair, whichever of the two asked.
    static let pairCondition = "((requester_id = ? AND addressee_id = ?) OR (requester_id = ? AND addressee_id = ?))"

    public func friendship(_ a: String, _ b: String) async throws -> Friendship? {
        try await database.read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT requester_id, status FROM friendship WHERE \(SQLiteGroupRepository.pairCondition)",
                arguments: [a, b, b, a]
            ).map { row -> Friendship in
                let status: String = row["status"]
                return status == "accepted" ? .friends : .pending(requesterID: row["requester_id"])
            }
        }
    }

    public func insertFriendRequest(from: String, to: String, now: Date, notifications: [UserNotification]) async throws {
        try await database.write { db in
            if try db.exists(
                "SELECT 1 FROM user_block WHERE (blocker_id = ? AND blocked_id = ?) OR (blocker_id = ? AND blocked_id = ?)",
                arguments: [from, to, to, from]
            ) {
                throw PlacesError(.conflict, "a block stands between the two", cause: .blocked)
            }
            if try db.exists("SELECT 1 FROM friendship WHERE \(SQLiteGroupRepository.pairCondition)", arguments: [from, to, to, from]) {
                throw PlacesError(.conflict, "there is already a request or a friendship between you", field: "username")
            }
            try db.execute(
                sql: "INSERT INTO friendship (requester_id, addressee_id, status, created_at) VALUES (?, ?, 'pending', ?)",
                arguments: [from, to, Timestamp.text(now)]
            )
            try SQLiteNotificationRepository.insert(notifications, in: db)
        }
    }

    public func acceptFriendRequest(from: String, to: String, now: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: """
                    UPDATE friendship SET status = 'accepted', accepted_at = ?
                    WHERE requester_id = ? AND addressee_id = ? AND status = 'pending'
                    """,
                arguments: [Timestamp.text(now), from, to]
            )
            return db.changesCount > 0
        }
    }

    public func declineFriendRequest(from: String, to: String, now: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM friendship WHERE requester_id = ? AND addressee_id = ? AND status = 'pending'",
                arguments: [from, to]
            )
            guard db.changesCount > 0 else { return false }
            try SQLiteGroupRepository.recordDecline(.friendRequest, subjectID: from, recipientID: to, now: now, in: db)
            return true
        }
    }

    public func pendingFriendRequestCount(requesterID: String) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM friendship WHERE requester_id = ? AND status = 'pending'", arguments: [requesterID]) ?? 0
        }
    }

    public func lastDeclined(_ kind: DeclinedKind, subjectID: String, recipientID: String) async throws -> Date? {
        try await database.read { db in
            try String.fetchOne(
                db,
                sql: "SELECT declined_at FROM declined_request WHERE kind = ? AND subject_id = ? AND recipient_id = ?",
                arguments: [kind.rawValue, subjectID, recipientID]
            ).flatMap(Timestamp.date)
        }
    }

    /// Remembers that the recipient declined, replacing an earlier decline of the same.
    static func recordDecline(_ kind: DeclinedKind, subjectID: String, recipientID: String, now: Date, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO declined_request (kind, subject_id, recipient_id, declined_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (kind, subject_id, recipient_id) DO UPDATE SET declined_at = excluded.declined_at
                """,
            arguments: [kind.rawValue, subjectID, recipientID, Timestamp.text(now)]
        )
    }

    public func deleteFriendship(_ a: String, _ b: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM friendship WHERE \(SQLiteGroupRepository.pairCondition)", arguments: [a, b, b, a])
            return db.changesCount > 0
        }
    }

    public func friends(of userID: String, page: PageRequest) async throws -> Page<Friend> {
        let after = try Keyset([.init(sql: "u.username_key"), .init(sql: "u.id")], page: page)
        return try await database.read { db in
            try after.page(
                page,
                """
                SELECT u.*, f.accepted_at AS friend_since
                FROM friendship f
                JOIN user_account u ON u.id = CASE WHEN f.requester_id = ? THEN f.addressee_id ELSE f.requester_id END
                WHERE (f.requester_id = ? OR f.addressee_id = ?) AND f.status = 'accepted'
                """,
                arguments: [userID, userID, userID],
                in: db
            ) { row in
                let friend = Friend(
                    user: PublicUser(SQLiteAccountRepository.user(row)),
                    since: row.date("friend_since")
                )
                return (friend, [row["username_key"], row["id"]])
            }
        }
    }

    public func friendRequests(userID: String, incoming: Bool, page: PageRequest) async throws -> Page<FriendRequest> {
        // The person is one side of every request listed; the other side comes from the join.
        let (ownColumn, otherColumn) = incoming ? ("addressee_id", "requester_id") : ("requester_id", "addressee_id")
        let after = try Keyset(
            [.init(sql: "f.created_at", descending: true), .init(sql: "u.username_key"), .init(sql: "u.id")],
            page: page
        )
        return try await database.read { db in
            guard let own = try SQLiteGroupRepository.publicUser(userID, in: db) else { return Page(items: [], nextCursor: nil) }
            return try after.page(
                page,
                """
                SELECT u.*, f.created_at AS requested_at
                FROM friendship f JOIN user_account u ON u.id = f.\(otherColumn)
                WHERE f.\(ownColumn) = ? AND f.status = 'pending'
                """,
                arguments: [userID],
                in: db
            ) { row in
                let other = PublicUser(SQLiteAccountRepository.user(row))
                let request = FriendRequest(
                    from: incoming ? other : own,
                    to: incoming ? own : other,
                    createdAt: row.date("requested_at")
                )
                return (request, [row["requested_at"], row["username_key"], row["id"]])
            }
        }
    }

    /// The public view of one account, read inside the caller's transaction.
    static func publicUser(_ id: String, in db: Database) throws -> PublicUser? {
        try Row.fetchOne(db, sql: "SELECT * FROM user_account WHERE id = ?", arguments: [id])
            .map { PublicUser(SQLiteAccountRepository.user($0)) }
    }
}
