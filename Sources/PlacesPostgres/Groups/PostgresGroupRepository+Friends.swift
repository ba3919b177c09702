import Foundation
import PlacesCore
import PostgresNIO

extension PostgresGroupRepository {
    public func friendship(_ a: String, _ b: String) async throws -> Friendship? {
        let row = try await database.read { connection in
            try await connection.row(
                """
                SELECT requester_id, status FROM friendship
                WHERE (requester_id = \(a) AND addressee_id = \(b)) OR (requester_id = \(b) AND addressee_id = \(a))
                """,
                logger: database.logger
            )
        }
        guard let row else { return nil }
        let status: String = try row.get("status")
        return status == "accepted" ? .friends : .pending(requesterID: try row.get("requester_id"))
    }

    public func insertFriendRequest(from: String, to: String, now: Date, notifications: [UserNotification]) async throws {
        try await database.write { connection in
            try await PostgresAccountRepository.refuseBlock(between: from, to, on: connection, database: database)
            // One row per pair whichever way round (the pair's unique index): a request racing another, either way,
            // waits for it and then stores nothing.
            let stored = try await connection.execute(
                """
                INSERT INTO friendship (requester_id, addressee_id, status, created_at)
                VALUES (\(from), \(to), 'pending', \(Timestamp.text(now)))
                ON CONFLICT DO NOTHING
                """,
                logger: database.logger
            )
            guard stored > 0 else {
                throw PlacesError(.conflict, "there is already a request or a friendship between you", field: "username")
            }
            try await PostgresNotificationRepository.insert(notifications, on: connection, database: database)
        }
    }

    public func acceptFriendRequest(from: String, to: String, now: Date) async throws -> Bool {
        try await database.write { connection in
            try await connection.execute(
                """
                UPDATE friendship SET status = 'accepted', accepted_at = \(Timestamp.text(now))
                WHERE requester_id = \(from) AND addressee_id = \(to) AND status = 'pending'
                """,
                logger: database.logger
            ) > 0
        }
    }

    public func declineFriendRequest(from: String, to: String, now: Date) async throws -> Bool {
        try await database.write { connection in
            let ended = try await connection.execute(
                "DELETE FROM friendship WHERE requester_id = \(from) AND addressee_id = \(to) AND status = 'pending'",
                logger: database.logger
            )
            guard ended > 0 else { return false }
            try await PostgresGroupRepository.recordDecline(
                .friendRequest,
                subjectID: from,
                recipientID: to,
                now: now,
                on: connection,
                database: database
            )
            return true
        }
    }

    public func pendingFriendRequestCount(requesterID: String) async throws -> Int {
        try await database.count("SELECT count(*) FROM friendship WHERE requester_id = \(requesterID) AND status = 'pending'")
    }

    public func lastDeclined(_ kind: DeclinedKind, subjectID: String, recipientID: String) async throws -> Date? {
        let declined = try await database.read { connection in
            try await connection.value(
                """
                SELECT declined_at FROM declined_request
                WHERE kind = \(kind.rawValue) AND subject_id = \(subjectID) AND recipient_id = \(recipientID)
                """,
                as: String.self,
                logger: database.logger
            )
        }
        return declined.flatMap(Timestamp.date)
    }

    /// Remembers that the recipient declined, replacing an earlier decline of the same, in the caller's transaction.
    static func recordDecline(
        _ kind: DeclinedKind,
        subjectID: String,
        recipientID: String,
        now: Date,
        on connection: PostgresConnection,
        database: PostgresPlacesDatabase
    ) async throws {
        try await connection.execute(
            """
            INSERT INTO declined_request (kind, subject_id, recipient_id, declined_at)
            VALUES (\(kind.rawValue), \(subjectID), \(recipientID), \(Timestamp.text(now)))
            ON CONFLICT (kind, subject_id, recipient_id) DO UPDATE SET declined_at = excluded.declined_at
            """,
            logger: database.logger
        )
    }

    public func deleteFriendship(_ a: String, _ b: String) async throws -> Bool {
        try await database.write { connection in
            try await connection.execute(
                """
                DELETE FROM friendship
                WHERE (requester_id = \(a) AND addressee_id = \(b)) OR (requester_id = \(b) AND addressee_id = \(a))
                """,
                logger: database.logger
            ) > 0
        }
    }

    public func friends(of userID: String, page: PageRequest) async throws -> Page<Friend> {
        let after = try Keyset([.init(sql: "u.username_key"), .init(sql: "u.id")], page: page)
        let rows = try await database.read { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: PostgresGroupRepository.userColumns("u")), u.username_key, f.accepted_at AS friend_since
                FROM friendship f
                JOIN user_account u ON u.id = CASE WHEN f.requester_id = \(userID) THEN f.addressee_id ELSE f.requester_id END
                WHERE (f.requester_id = \(userID) OR f.addressee_id = \(userID)) AND f.status = 'accepted'
                    AND \(after) \(orderBy: after) LIMIT \(page.fetchLimit)
                """,
                logger: database.logger
            )
        }
        return try page.page(rows) { row in
            let friend = Friend(user: try PostgresGroupRepository.publicUser(row), since: try row.date("friend_since"))
            return (friend, [try row.get("username_key"), try row.get("id")])
        }
    }

    public func friendRequests(userID: String, incoming: Bool, page: PageRequest) async throws -> Page<FriendRequest> {
        // The person is one side of every request listed (read under `own_`); the other side comes from the join.
        let (ownColumn, otherColumn) = incoming ? ("addressee_id", "requester_id") : ("requester_id", "addressee_id")
        let after = try Keyset(
            [.init(sql: "f.created_at", descending: true), .init(sql: "u.username_key"), .init(sql: "u.id")],
            page: page
        )
        let rows = try await database.read { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: PostgresGroupRepository.userColumns("u")), u.username_key,
                    \(unescaped: PostgresGroupRepository.userColumns("own", prefix: "own_")), f.created_at AS requested_at
                FROM friendship f
                JOIN user_account u ON u.id = f.\(unescaped: otherColumn)
                JOIN user_account own ON own.id = f.\(unescaped: ownColumn)
                WHERE f.\(unescaped: ownColumn) = \(userID) AND f.status = 'pending'
                    AND \(after) \(orderBy: after) LIMIT \(page.fetchLimit)
                """,
                logger: database.logger
            )
        }
        return try page.page(rows) { row in
            let own = try PostgresGroupRepository.publicUser(row, prefix: "own_")
            let other = try PostgresGroupRepository.publicUser(row)
            let requestedAt: String = try row.get("requested_at")
            let request = FriendRequest(
                from: incoming ? other : own,
                to: incoming ? own : other,
                createdAt: try row.date("requested_at")
            )
            return (request, [requestedAt, try row.get("username_key"), try row.get("id")])
        }
    }

    /// The columns of a person's public view, from the `user_account` row `alias`, each named with `prefix`.
    static func userColumns(_ alias: String, prefix: String = "") -> String {
        ["id", "username", "display_name", "bio", "city", "avatar_url", "picture_id"]
            .map { "\(alias).\($0) AS \(prefix)\($0)" }
            .joined(separator: ", ")
    }

    /// The public view of a person whose columns (`userColumns`) the row holds under `prefix`.
    static func publicUser(_ row: PostgresRandomAccessRow, prefix: String = "") throws -> PublicUser {
        PublicUser(
            id: try row.get(prefix + "id"),
            username: try row.get(prefix + "username"),
            profile: User.Profile(
                displayName: try row.get(prefix + "display_name"),
                bio: try row.get(prefix + "bio"),
                city: try row.get(prefix + "city"),
                avatarURL: try row.get(prefix + "avatar_url"),
                pictureURL: try row.get(prefix + "picture_id", as: String?.self).map(Photo.url(id:))
            )
        )
    }
}
