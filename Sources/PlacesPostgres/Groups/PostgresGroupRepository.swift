import Foundation
import PlacesCore
import PostgresNIO

/// Friendships, groups, their members and invitations in PostgreSQL (friends are in `+Friends`). Writes that decide
/// whether a group lives on (a member leaving) lock the group's row first, so they take turns.
public struct PostgresGroupRepository: GroupRepository {
    let database: PostgresPlacesDatabase

    public func insert(_ group: Group, creatorID: String) async throws {
        try await database.write { connection in
            try await connection.execute(
                """
                INSERT INTO place_group (id, name, description, picture_url, created_at, updated_at)
                VALUES (\(group.id), \(group.name), \(group.description), \(group.pictureURL), \(Timestamp.text(group.createdAt)),
                    \(Timestamp.text(group.updatedAt)))
                """,
                logger: database.logger
            )
            try await connection.execute(
                """
                INSERT INTO group_member (group_id, user_id, role, joined_at)
                VALUES (\(group.id), \(creatorID), 'admin', \(Timestamp.text(group.createdAt)))
                """,
                logger: database.logger
            )
        }
    }

    public func group(id: String) async throws -> Group? {
        let rows = try await database.read { connection in
            try await connection.rows(
                """
                WITH chosen AS (SELECT * FROM place_group WHERE id = \(id))
                \(unescaped: PostgresGroupRepository.withMembers)
                """,
                logger: database.logger
            )
        }
        return try PostgresGroupRepository.groups(rows).first
    }

    public func groups(memberID: String, page: PageRequest) async throws -> Page<Group> {
        let after = try Keyset.byName(of: "g", page: page)
        let rows = try await database.read { connection in
            try await connection.rows(
                """
                WITH chosen AS (
                    SELECT g.* FROM place_group g JOIN group_member m ON m.group_id = g.id
                    WHERE m.user_id = \(memberID) AND \(after) \(orderBy: after) LIMIT \(page.fetchLimit)
                )
                \(unescaped: PostgresGroupRepository.withMembers)
                """,
                logger: database.logger
            )
        }
        return page.page(try PostgresGroupRepository.groups(rows).map { group in (group, [group.name, group.name, group.id]) })
    }

    public func groupIDs(memberID: String) async throws -> [String] {
        let rows = try await database.read { connection in
            try await connection.rows(
                "SELECT group_id FROM group_member WHERE user_id = \(memberID) ORDER BY group_id",
                logger: database.logger
            )
        }
        return try rows.map { try $0.get("group_id") }
    }

    public func update(_ group: Group) async throws {
        try await database.write { connection in
            _ = try await connection.execute(
                """
                UPDATE place_group SET name = \(group.name), description = \(group.description), picture_url = \(group.pictureURL),
                    updated_at = \(Timestamp.text(group.updatedAt))
                WHERE id = \(group.id)
                """,
                logger: database.logger
            )
        }
    }

    public func deleteGroup(id: String) async throws {
        try await database.write { connection in
            // Members, invitations, collections and their entries, decisions go with it (ON DELETE CASCADE).
            _ = try await connection.execute("DELETE FROM place_group WHERE id = \(id)", logger: database.logger)
        }
    }

    public func insertInvitation(groupID: String, inviteeID: String, inviterID: String, now: Date, notifications: [UserNotification])
        async throws
    {
        try await database.write { connection in
            try await PostgresAccountRepository.refuseBlock(between: inviterID, inviteeID, on: connection, database: database)
            // An invitation racing another to the same person waits for it and then stores nothing.
            let stored = try await connection.execute(
                """
                INSERT INTO group_invitation (group_id, invitee_id, inviter_id, created_at)
                VALUES (\(groupID), \(inviteeID), \(inviterID), \(Timestamp.text(now)))
                ON CONFLICT (group_id, invitee_id) DO NOTHING
                """,
                logger: database.logger
            )
            guard stored > 0 else {
                throw PlacesError(.conflict, "that person already has an invitation to this group", field: "username")
            }
            try await PostgresNotificationRepository.insert(notifications, on: connection, database: database)
        }
    }

    public func invitations(inviteeID: String, page: PageRequest) async throws -> Page<GroupInvitation> {
        let after = try Keyset([.init(sql: "i.created_at", descending: true), .init(sql: "i.group_id")], page: page)
        let rows = try await database.read { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: PostgresGroupRepository.userColumns("inviter")),
                    \(unescaped: PostgresGroupRepository.userColumns("invitee", prefix: "invitee_")),
                    i.group_id AS invitation_group, g.name AS group_name, i.created_at AS invited_at
                FROM group_invitation i
                JOIN place_group g ON g.id = i.group_id
                JOIN user_account inviter ON inviter.id = i.inviter_id
                JOIN user_account invitee ON invitee.id = i.invitee_id
                WHERE i.invitee_id = \(inviteeID) AND \(after) \(orderBy: after) LIMIT \(page.fetchLimit)
                """,
                logger: database.logger
            )
        }
        return try page.page(rows) { row in
            let invitedAt: String = try row.get("invited_at")
            let invitation = GroupInvitation(
                groupId: try row.get("invitation_group"),
                groupName: try row.get("group_name"),
                invitee: try PostgresGroupRepository.publicUser(row, prefix: "invitee_"),
                invitedBy: try PostgresGroupRepository.publicUser(row),
                createdAt: try row.date("invited_at")
            )
            return (invitation, [invitedAt, invitation.groupId])
        }
    }

    public func answerInvitation(groupID: String, inviteeID: String, accept: Bool, now: Date) async throws -> Bool {
        try await database.write { connection in
            // Locks in the order account deletion takes them: the group (a joiner and a last member leaving take
            // turns), then the invitee's account (which the membership or the decline will reference), then the
            // invitation.
            if accept { try await PostgresGroupRepository.lock([groupID], on: connection, database: database) }
            try await connection.execute("SELECT 1 FROM user_account WHERE id = \(inviteeID) FOR KEY SHARE", logger: database.logger)
            let ended = try await connection.execute(
                "DELETE FROM group_invitation WHERE group_id = \(groupID) AND invitee_id = \(inviteeID)",
                logger: database.logger
            )
            guard ended > 0 else { return false }
            if accept {
                try await connection.execute(
                    """
                    INSERT INTO group_member (group_id, user_id, role, joined_at)
                    VALUES (\(groupID), \(inviteeID), 'member', \(Timestamp.text(now)))
                    ON CONFLICT (group_id, user_id) DO NOTHING
                    """,
                    logger: database.logger
                )
            } else {
                try await PostgresGroupRepository.recordDecline(
                    .groupInvitation,
                    subjectID: groupID,
                    recipientID: inviteeID,
                    now: now,
                    on: connection,
                    database: database
                )
            }
            return true
        }
    }

    public func pendingInvitationCount(inviterID: String) async throws -> Int {
        try await database.count("SELECT count(*) FROM group_invitation WHERE inviter_id = \(inviterID)")
    }

    public func setRole(groupID: String, userID: String, role: GroupRole) async throws {
        try await database.write { connection in
            _ = try await connection.execute(
                "UPDATE group_member SET role = \(role.rawValue) WHERE group_id = \(groupID) AND user_id = \(userID)",
                logger: database.logger
            )
        }
    }

    public func removeMember(groupID: String, userID: String, promoting successorID: String?) async throws {
        try await database.write { connection in
            try await PostgresGroupRepository.lock([groupID], on: connection, database: database)
            if let successorID {
                try await connection.execute(
                    "UPDATE group_member SET role = 'admin' WHERE group_id = \(groupID) AND user_id = \(successorID)",
                    logger: database.logger
                )
            }
            try await connection.execute(
                "DELETE FROM group_member WHERE group_id = \(groupID) AND user_id = \(userID)",
                logger: database.logger
            )
            try await PostgresGroupRepository.deleteIfEmpty([groupID], on: connection, database: database)
        }
    }

    /// Locks the groups' rows (in id order, so that two writers never wait on each other) until the caller's
    /// transaction ends: whoever then asks who is left in them sees every other leaver's change.
    static func lock(_ groupIDs: [String], on connection: PostgresConnection, database: PostgresPlacesDatabase) async throws {
        guard !groupIDs.isEmpty else { return }
        try await connection.execute(
            "SELECT id FROM place_group WHERE id = ANY(\(groupIDs)) ORDER BY id FOR NO KEY UPDATE",
            logger: database.logger
        )
    }

    /// Deletes those of the groups that have no member left (with everything that cascades from them).
    static func deleteIfEmpty(_ groupIDs: [String], on connection: PostgresConnection, database: PostgresPlacesDatabase) async throws {
        guard !groupIDs.isEmpty else { return }
        try await connection.execute(
            """
            DELETE FROM place_group g
            WHERE g.id = ANY(\(groupIDs)) AND NOT EXISTS (SELECT 1 FROM group_member m WHERE m.group_id = g.id)
            """,
            logger: database.logger
        )
    }

    /// Keeps the groups someone left without naming a successor whole, in the caller's transaction (after their
    /// memberships are gone): an empty group ends, and one left without an admin gets its longest-standing member as
    /// admin (`GroupSuccession`).
    static func afterLeaving(_ groupIDs: [String], on connection: PostgresConnection, database: PostgresPlacesDatabase) async throws {
        guard !groupIDs.isEmpty else { return }
        try await lock(groupIDs, on: connection, database: database)
        try await deleteIfEmpty(groupIDs, on: connection, database: database)
        let rows = try await connection.rows(
            """
            SELECT m.group_id, m.user_id, m.joined_at, u.username_key
            FROM group_member m JOIN user_account u ON u.id = m.user_id
            WHERE m.group_id = ANY(\(groupIDs))
                AND NOT EXISTS (SELECT 1 FROM group_member a WHERE a.group_id = m.group_id AND a.role = 'admin')
            """,
            logger: database.logger
        )
        var members: [String: [GroupSuccession.Candidate]] = [:]
        for row in rows {
            members[try row.get("group_id"), default: []].append(
                GroupSuccession.Candidate(userID: try row.get("user_id"), joinedAt: try row.get("joined_at"), usernameKey: try row.get("username_key"))
            )
        }
        for (groupID, candidates) in members.sorted(by: { $0.key < $1.key }) {
            guard let eldest = GroupSuccession.eldest(candidates) else { continue }
            try await connection.execute(
                "UPDATE group_member SET role = 'admin' WHERE group_id = \(groupID) AND user_id = \(eldest)",
                logger: database.logger
            )
        }
    }

    /// The groups `chosen` holds (a `WITH` the query defines before this), each with its members, admins first, then by
    /// username: one row per member (a lone row of NULLs for a group without any), groups in the order of their list.
    static let withMembers = """
        SELECT g.id AS group_id, g.name AS group_name, g.description AS group_description, g.picture_url AS group_picture_url,
            g.created_at AS group_created_at, g.updated_at AS group_updated_at,
            \(userColumns("u")), m.role AS member_role, m.joined_at AS member_joined_at
        FROM chosen g
        LEFT JOIN (group_member m JOIN user_account u ON u.id = m.user_id) ON m.group_id = g.id
        ORDER BY lower(g.name), g.name, g.id, m.role = 'admin' DESC, u.username_key, u.id
        """

    /// The groups of `withMembers` rows, in their order.
    static func groups(_ rows: [PostgresRandomAccessRow]) throws -> [Group] {
        var groups: [Group] = []
        for row in rows {
            let id: String = try row.get("group_id")
            if groups.last?.id != id {
                groups.append(
                    Group(
                        id: id,
                        name: try row.get("group_name"),
                        description: try row.get("group_description"),
                        pictureURL: try row.get("group_picture_url"),
                        createdAt: try row.date("group_created_at"),
                        updatedAt: try row.date("group_updated_at"),
                        members: []
                    )
                )
            }
            guard let roleText = try row.get("member_role", as: String?.self) else { continue }
            groups[groups.count - 1].members.append(
                GroupMember(
                    user: try publicUser(row),
                    role: GroupRole(rawValue: roleText) ?? .member,
                    joinedAt: try row.date("member_joined_at")
                )
            )
        }
        return groups
    }
}

extension Keyset {
    /// A list by name ignoring case (ASCII only, as SQLite's NOCASE), then as written, then id, of the table `alias`,
    /// continuing after the page's cursor (whose key is the name, the name again, and the id: the texts SQLite's keeps).
    static func byName(of alias: String, page: PageRequest) throws(PlacesError) -> Keyset {
        let key = try page.after(parts: 3).map { key -> [any PostgresDynamicTypeEncodable & Sendable] in
            [lowercasedASCII(key[0]), key[1], key[2]]
        }
        return Keyset([.init(sql: "lower(\(alias).name)"), .init(sql: "\(alias).name"), .init(sql: "\(alias).id")], after: key)
    }

    /// The text with A–Z folded to a–z and nothing else changed: what `lower()` does under collation "C".
    static func lowercasedASCII(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}

extension PostgresPlacesDatabase {
    /// The friends and groups repository over this database.
    public var groups: PostgresGroupRepository { PostgresGroupRepository(database: self) }
}
