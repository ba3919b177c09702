import Foundation
import GRDB
import PlacesCore

/// Accounts, sessions and settings in SQLite.
public struct SQLiteAccountRepository: AccountRepository {
    let database: PlacesDatabase

    public func insert(_ user: User) async throws {
        try await database.write { db in
            try SQLiteAccountRepository.checkUnique(user, in: db)
            try db.execute(
                sql: """
                    INSERT INTO user_account (id, username, username_key, email, phone, password_hash, display_name, bio, city,
                        avatar_url, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    user.id, user.username, AccountRules.usernameKey(user.username), user.email, user.phone, user.passwordHash,
                    user.profile.displayName, user.profile.bio, user.profile.city, user.profile.avatarURL,
                    Timestamp.text(user.createdAt), Timestamp.text(user.updatedAt),
                ]
            )
        }
    }

    /// Names the field a new or changed user would collide on, so the answer says which one is taken.
    static func checkUnique(_ user: User, in db: Database) throws {
        for check in StoredText.uniqueNames(of: user) {
            guard let value = check.value else { continue }
            if try db.exists("SELECT 1 FROM user_account WHERE \(check.column) = ? AND id <> ?", arguments: [value, user.id]) {
                throw PlacesError(.conflict, "that \(check.field) is already taken", field: check.field)
            }
        }
    }

    public func user(id: String) async throws -> User? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM user_account WHERE id = ?", arguments: [id]).map(SQLiteAccountRepository.user)
        }
    }

    /// `values` as a JSON array of strings, for `json_each(?)`: one bound parameter however many ids a read names.
    static func jsonArray(_ values: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(values)) ?? Data("[]".utf8), as: UTF8.self)
    }

    public func user(login: LoginName) async throws -> User? {
        let (column, value) = StoredText.accountColumn(of: login)
        return try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM user_account WHERE \(column) = ?", arguments: [value])
                .map(SQLiteAccountRepository.user)
        }
    }

    public func update(_ user: User) async throws {
        try await database.write { db in
            try SQLiteAccountRepository.checkUnique(user, in: db)
            try db.execute(
                sql: """
                    UPDATE user_account SET email = ?, phone = ?, display_name = ?, bio = ?, city = ?, avatar_url = ?,
                        updated_at = ?
                    WHERE id = ?
                    """,
                arguments: [
                    user.email, user.phone, user.profile.displayName, user.profile.bio, user.profile.city, user.profile.avatarURL,
                    Timestamp.text(user.updatedAt), user.id,
                ]
            )
        }
    }

    public func updatePassword(userID: String, hash: String, keeping tokenHash: String?, now: Date) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE user_account SET password_hash = ?, updated_at = ? WHERE id = ?",
                arguments: [hash, Timestamp.text(now), userID]
            )
            try db.execute(
                sql: "DELETE FROM session WHERE user_id = ? AND token_hash IS NOT ?",
                arguments: [userID, tokenHash]
            )
        }
    }

    public func delete(userID: String) async throws {
        try await database.write { db in
            let rated = try String.fetchAll(db, sql: "SELECT place_id FROM rating WHERE user_id = ?", arguments: [userID])
            let owned = try db.exists("SELECT 1 FROM place WHERE owner_id = ?", arguments: [userID])
            let groupIDs = try String.fetchAll(db, sql: "SELECT group_id FROM group_member WHERE user_id = ?", arguments: [userID])
            try db.execute(sql: "DELETE FROM rating WHERE user_id = ?", arguments: [userID])
            // Their photos and picture, with the bytes no one else's photo shows (their places' counts change).
            try SQLitePhotoRepository.removePhotos(ofUser: userID, in: db)
            // Sessions, settings, statuses, blocks, favourites, friendships, memberships, invitations, notifications and personal
            // collections go with the account (ON DELETE CASCADE); places they added to others' collections stay,
            // with no one named as having added them (ON DELETE SET NULL).
            try db.execute(sql: "DELETE FROM user_account WHERE id = ?", arguments: [userID])
            try SQLiteGroupRepository.afterLeaving(groupIDs, in: db)
            guard !rated.isEmpty || owned else { return }
            let revision = try SQLitePlaceRepository.writerStamp(db)
            _ = try SQLitePlaceRepository.recountRatings(of: rated, revision: revision, in: db)
            try db.execute(
                sql: "UPDATE place SET owner_id = NULL, revision = ? WHERE owner_id = ?",
                arguments: [revision, userID]
            )
        }
    }

    public func searchUsers(_ text: String, viewerID: String?, page: PageRequest) async throws -> Page<User> {
        let pattern = "%" + text.folded.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
        let after = try Keyset([.init(sql: "username_key")], page: page)
        return try await database.readStatement { db in
            try after.page(
                page,
                """
                SELECT * FROM user_account WHERE (username_key LIKE ? ESCAPE '\\' OR places_fold(display_name) LIKE ? ESCAPE '\\')
                    AND NOT \(SQLiteAccountRepository.blockedEitherWay)
                """,
                arguments: [pattern, pattern, viewerID ?? "", viewerID ?? ""],
                in: db
            ) { row in (SQLiteAccountRepository.user(row), [row["username_key"]]) }
        }
    }

    public func insert(_ session: Session) async throws {
        try await database.write { db in
            // Expired sessions of the same person are swept as new ones are made.
            try db.execute(
                sql: "DELETE FROM session WHERE user_id = ? AND expires_at <= ?",
                arguments: [session.userID, Timestamp.text(session.createdAt)]
            )
            try db.execute(
                sql: "INSERT INTO session (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [session.tokenHash, session.userID, Timestamp.text(session.createdAt), Timestamp.text(session.expiresAt)]
            )
        }
    }

    public func session(tokenHash: String) async throws -> (session: Session, user: User)? {
        try await database.readStatement { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT u.*, s.token_hash, s.created_at AS session_created_at, s.expires_at AS session_expires_at
                    FROM session s JOIN user_account u ON u.id = s.user_id WHERE s.token_hash = ?
                    """,
                arguments: [tokenHash]
            ).map { row in
                let session = Session(
                    tokenHash: row["token_hash"],
                    userID: row["id"],
                    createdAt: row.date("session_created_at"),
                    expiresAt: row.date("session_expires_at")
                )
                return (session, SQLiteAccountRepository.user(row))
            }
        }
    }

    public func deleteSession(tokenHash: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM session WHERE token_hash = ?", arguments: [tokenHash])
        }
    }

    public func settings(userID: String) async throws -> UserSettings? {
        let text = try await database.read { db in
            try String.fetchOne(db, sql: "SELECT settings FROM user_settings WHERE user_id = ?", arguments: [userID])
        }
        return try text.map { text throws(PlacesError) in try StoredText.decodeSettings(text, userID: userID) }
    }

    public func settings(userIDs: [String]) async throws -> [String: UserSettings] {
        guard !userIDs.isEmpty else { return [:] }
        let rows = try await database.readStatement { db in
            try Row.fetchAll(
                db,
                sql: "SELECT user_id, settings FROM user_settings WHERE user_id IN (SELECT value FROM json_each(?))",
                arguments: [SQLiteAccountRepository.jsonArray(Array(Set(userIDs)))]
            ).map { (row: Row) -> (String, String) in (row["user_id"], row["settings"]) }
        }
        var found: [String: UserSettings] = [:]
        for (userID, text) in rows { found[userID] = try StoredText.decodeSettings(text, userID: userID) }
        return found
    }

    public func save(_ settings: UserSettings, userID: String, now: Date) async throws {
        let text = String(decoding: try PlacesJSON.makeEncoder().encode(settings), as: UTF8.self)
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO user_settings (user_id, settings, updated_at) VALUES (?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at
                    """,
                arguments: [userID, text, Timestamp.text(now)]
            )
        }
    }

    public func export(userID: String) async throws -> AccountExport? {
        guard let user = try await user(id: userID) else { return nil }
        let settings = try await settings(userID: userID) ?? UserSettings()
        return try await database.read { db in
            let sessions = try Row.fetchAll(
                db,
                sql: "SELECT created_at, expires_at FROM session WHERE user_id = ? ORDER BY created_at",
                arguments: [userID]
            ).map { row in
                AccountExport.SessionInfo(
                    createdAt: row.date(0),
                    expiresAt: row.date(1)
                )
            }
            let favorites = try Row.fetchAll(
                db,
                sql: "SELECT place_id, created_at FROM favorite WHERE user_id = ? ORDER BY created_at, place_id",
                arguments: [userID]
            ).map { row in
                AccountExport.FavoriteInfo(placeId: row[0], createdAt: row.date(1))
            }
            let ratings = try Row.fetchAll(
                db,
                sql: "SELECT * FROM rating WHERE user_id = ? ORDER BY place_id",
                arguments: [userID]
            ).map { row in
                Rating(
                    placeId: row["place_id"],
                    userId: row["user_id"],
                    stars: row["stars"],
                    review: row["review"],
                    createdAt: row.date("created_at"),
                    updatedAt: row.date("updated_at")
                )
            }
            let places = try String.fetchAll(db, sql: "SELECT id FROM place WHERE owner_id = ? ORDER BY id", arguments: [userID])
            let (blocked, status) = try SQLiteAccountRepository.exportedBlocks(of: userID, in: db)
            return AccountExport(
                account: OwnUser(user),
                settings: settings,
                sessions: sessions,
                favorites: favorites,
                ratings: ratings,
                places: places,
                blocked: blocked,
                status: status
            )
        }
    }

    static func user(_ row: Row) -> User {
        User(
            id: row["id"],
            username: row["username"],
            email: row["email"],
            phone: row["phone"],
            passwordHash: row["password_hash"],
            profile: User.Profile(
                displayName: row["display_name"],
                bio: row["bio"],
                city: row["city"],
                avatarURL: row["avatar_url"],
                pictureURL: (row["picture_id"] as String?).map(Photo.url(id:))
            ),
            createdAt: row.date("created_at"),
            updatedAt: row.date("updated_at")
        )
    }
}

extension PlacesDatabase {
    /// The account repository over this database.
    public var accounts: SQLiteAccountRepository { SQLiteAccountRepository(database: self) }
}
