import Foundation
import GRDB
import PlacesCore

/// Friendships, groups, their members and invitations in SQLite (friends are in `+Friends`).
public struct SQLiteGroupRepository: GroupRepository {
    let database: PlacesDatabase

    public func insert(_ group: Group, creatorID: String) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO place_group (id, name, description, picture_url, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    group.id, group.name, group.description, group.pictureURL, Timestamp.text(group.createdAt),
                    Timestamp.text(group.updatedAt),
                ]
            )
            try db.execute(
                sql: "INSERT INTO group_member (group_id, user_id, role, joined_at) VALUES (?, ?, 'admin', ?)",
                arguments: [group.id, creatorID, Timestamp.text(group.createdAt)]
            )
        }
    }

    public func group(id: String) async throws -> Group? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM place_group WHERE id = ?", arguments: [id])
                .map { try SQLiteGroupRepository.group($0, in: db) }
        }
    }

    public func groups(memberID: String, page: PageRequest) async throws -> Page<Group> {
        let after = try Keyset([.init(sql: "g.name COLLATE NOCASE"), .init(sql: "g.name"), .init(sql: "g.id")], page: page)
        return try await database.read { db in
            try after.page(
                page,
                "SELECT g.* FROM place_group g JOIN group_member m ON m.group_id = g.id WHERE m.user_id = ?",
                arguments: [memberID],
                in: db
            ) { row in (try SQLiteGroupRepository.group(row, in: db), [row["name"], row["name"], row["id"]]) }
        }
    }

    public func groupIDs(memberID: String) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(db, sql: "SELECT group_id FROM group_member WHERE user_id = ? ORDER BY group_id", arguments: [memberID])
        }
    }

    public func update(_ group: Group) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE place_group SET name = ?, description = ?, picture_url = ?, updated_at = ? WHERE id = ?",
                arguments: [group.name, group.description, group.pictureURL, Timestamp.text(group.updatedAt), group.id]
            )
        }
    }

    public func deleteGroup(id: String) async throws {
        try await database.write { db in
            // Members, invitations, collections and their entries go with it (ON DELETE CASCADE).
            try db.execute(sql: "DELETE FROM place_group WHERE id = ?", arguments: [id])
        }
    }

    public func insertInvitation(groupID: String, inviteeID: String, inviterID: String, now: Date, notifications: [UserNotification])
        async throws
    {
        try await database.write { db in
            if try db.exists(
                "SELECT 1 FROM user_block WHERE (blocker_id = ? AND blocked_id = ?) OR (blocker_id = ? AND blocked_id = ?)",
                arguments: [inviterID, inviteeID, inviteeID, inviterID]
            ) {
                throw PlacesError(.conflict, "a block stands between the two", cause: .blocked)
            }
            if try db.exists("SELECT 1 FROM group_invitation WHERE group_id = ? AND invitee_id = ?", arguments: [groupID, inviteeID]) {
                throw PlacesError(.conflict, "that person already has an invitation to this group", field: "username")
            }
            try db.execute(
                sql: "INSERT INTO group_invitation (group_id, invitee_id, inviter_id, created_at) VALUES (?, ?, ?, ?)",
                arguments: [groupID, inviteeID, inviterID, Timestamp.text(now)]
            )
            try SQLiteNotificationRepository.insert(notifications, in: db)
        }
    }

    public func invitations(inviteeID: String, page: PageRequest) async throws -> Page<GroupInvitation> {
        let after = try Keyset([.init(sql: "i.created_at", descending: true), .init(sql: "i.group_id")], page: page)
        return try await database.read { db in
            guard let invitee = try SQLiteGroupRepository.publicUser(inviteeID, in: db) else { return Page(items: [], nextCursor: nil) }
            return try after.page(
                page,
                """
                SELECT u.*, i.group_id AS invitation_group, g.name AS group_name, i.created_at AS invited_at
                FROM group_invitation i
                JOIN place_group g ON g.id = i.group_id
                JOIN user_account u ON u.id = i.inviter_id
                WHERE i.invitee_id = ?
                """,
                arguments: [inviteeID],
                in: db
            ) { row in
                let invitation = GroupInvitation(
                    groupId: row["invitation_group"],
                    groupName: row["group_name"],
                    invitee: invitee,
                    invitedBy: PublicUser(SQLiteAccountRepository.user(row)),
                    createdAt: row.date("invited_at")
                )
                return (invitation, [row["invited_at"], row["invitation_group"]])
            }
        }
    }

    public func answerInvitation(groupID: String, inviteeID: String, accept: Bool, now: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM group_invitation WHERE group_id = ? AND invitee_id = ?",
                arguments: [groupID, inviteeID]
            )
            guard db.changesCount > 0 else { return false }
            if !accept {
                try SQLiteGroupRepository.recordDecline(.groupInvitation, subjectID: groupID, recipientID: inviteeID, now: now, in: db)
            }
            if accept {
                try db.execute(
                    sql: """
                        INSERT INTO group_member (group_id, user_id, role, joined_at) VALUES (?, ?, 'member', ?)
                        ON CONFLICT (group_id, user_id) DO NOTHING
                        """,
                    arguments: [groupID, inviteeID, Timestamp.text(now)]
                )
            }
            return true
        }
    }

    public func pendingInvitationCount(inviterID: String) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM group_invitation WHERE inviter_id = ?", arguments: [inviterID]) ?? 0
        }
    }

    public func setRole(groupID: String, userID: String, role: GroupRole) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE group_member SET role = ? WHERE group_id = ? AND user_id = ?",
                arguments: [role.rawValue, groupID, userID]
            )
        }
    }

    public func removeMember(groupID: String, userID: String, promoting successorID: String?) async throws {
        try await database.write { db in
            if let successorID {
                try db.execute(
                    sql: "UPDATE group_member SET role = 'admin' WHERE group_id = ? AND user_id = ?",
                    arguments: [groupID, successorID]
                )
            }
            try db.execute(sql: "DELETE FROM group_member WHERE group_id = ? AND user_id = ?", arguments: [groupID, userID])
            try SQLiteGroupRepository.deleteIfEmpty([groupID], in: db)
        }
    }

    /// Deletes those of the groups that have no member left (with everything that cascades from them).
    static func deleteIfEmpty(_ groupIDs: [String], in db: Database) throws {
        for groupID in groupIDs {
            try db.execute(
                sql: "DELETE FROM place_group WHERE id = ? AND NOT EXISTS (SELECT 1 FROM group_member WHERE group_id = ?)",
                arguments: [groupID, groupID]
            )
        }
    }

    /// Keeps the groups someone left without naming a successor whole: an empty group ends, and one left without
    /// an admin gets its longest-standing member as admin (`GroupSuccession`).
    static func afterLeaving(_ groupIDs: [String], in db: Database) throws {
        try deleteIfEmpty(groupIDs, in: db)
        for groupID in groupIDs {
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM group_member WHERE group_id = ? AND role = 'admin'", arguments: [groupID]) == nil
            else { continue }
            let members = try Row.fetchAll(
                db,
                sql: "SELECT m.user_id, m.joined_at, u.username_key FROM group_member m JOIN user_account u ON u.id = m.user_id WHERE m.group_id = ?",
                arguments: [groupID]
            ).map { GroupSuccession.Candidate(userID: $0["user_id"], joinedAt: $0["joined_at"], usernameKey: $0["username_key"]) }
            guard let eldest = GroupSuccession.eldest(members) else { continue }
            try db.execute(sql: "UPDATE group_member SET role = 'admin' WHERE group_id = ? AND user_id = ?", arguments: [groupID, eldest])
        }
    }

    /// A group row with its members, admins first, then by username.
    static func group(_ row: Row, in db: Database) throws -> Group {
        let id: String = row["id"]
        let members = try Row.fetchAll(
            db,
            sql: """
                SELECT u.*, m.role AS member_role, m.joined_at AS member_joined_at
                FROM group_member m JOIN user_account u ON u.id = m.user_id
                WHERE m.group_id = ?
                ORDER BY m.role = 'admin' DESC, u.username_key, u.id
                """,
            arguments: [id]
        ).map { member in
            let roleText: String = member["member_role"]
            return GroupMember(
                user: PublicUser(SQLiteAccountRepository.user(member)),
                role: GroupRole(rawValue: roleText) ?? .member,
                joinedAt: member.date("member_joined_at")
            )
        }
        return Group(
            id: id,
            name: row["name"],
            description: row["description"],
            pictureURL: row["picture_url"],
            createdAt: row.date("created_at"),
            updatedAt: row.date("updated_at"),
            members: members
        )
    }
}

extension PlacesDatabase {
    /// The friends and groups repository over this database.
    public var groups: SQLiteGroupRepository { SQLiteGroupRepository(database: self) }
}
