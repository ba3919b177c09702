import Foundation
import PlacesCore
import PostgresNIO

/// Accounts, sessions and settings in PostgreSQL.
public struct PostgresAccountRepository: AccountRepository {
    let database: PostgresPlacesDatabase

    public func insert(_ user: User) async throws {
        try await database.write { connection in
            // A taken username, e-mail or phone skips the row instead of failing the transaction, so the check that
            // names the field can run afterwards (and sees a rival insert once it committed).
            let inserted = try await connection.execute(
                """
                INSERT INTO user_account (id, username, username_key, email, phone, password_hash, display_name,
                    display_name_folded, bio, city, avatar_url, created_at, updated_at)
                VALUES (\(user.id), \(user.username), \(AccountRules.usernameKey(user.username)), \(user.email), \(user.phone),
                    \(user.passwordHash), \(user.profile.displayName), \(user.profile.displayName?.folded), \(user.profile.bio),
                    \(user.profile.city), \(user.profile.avatarURL), \(Timestamp.text(user.createdAt)), \(Timestamp.text(user.updatedAt)))
                ON CONFLICT DO NOTHING
                """,
                logger: database.logger
            )
            guard inserted == 0 else { return }
            try await PostgresAccountRepository.checkUnique(user, on: connection, database: database)
            throw PlacesError(.conflict, "the change conflicts with what is stored")
        }
    }

    /// Names the field a new or changed user would collide on, so the answer says which one is taken.
    static func checkUnique(_ user: User, on connection: PostgresConnection, database: PostgresPlacesDatabase) async throws {
        for check in StoredText.uniqueNames(of: user) {
            guard let value = check.value else { continue }
            let taken = try await connection.value(
                "SELECT EXISTS (SELECT 1 FROM user_account WHERE \(unescaped: check.column) = \(value) AND id <> \(user.id))",
                as: Bool.self,
                logger: database.logger
            )
            if taken == true {
                throw PlacesError(.conflict, "that \(check.field) is already taken", field: check.field)
            }
        }
    }

    public func user(id: String) async throws -> User? {
        try await database.read { connection in
            try await connection.row("SELECT * FROM user_account WHERE id = \(id)", logger: database.logger)
                .map(PostgresAccountRepository.user)
        }
    }

    public func user(login: LoginName) async throws -> User? {
        let (column, value) = StoredText.accountColumn(of: login)
        return try await database.read { connection in
            try await connection.row("SELECT * FROM user_account WHERE \(unescaped: column) = \(value)", logger: database.logger)
                .map(PostgresAccountRepository.user)
        }
    }

    public func update(_ user: User) async throws {
        try await database.write { connection in
            // The update runs under a savepoint: when a value is taken, the transaction is still usable to name it.
            try await connection.query("SAVEPOINT user_update", logger: database.logger)
            do {
                try await connection.execute(
                    """
                    UPDATE user_account SET email = \(user.email), phone = \(user.phone), display_name = \(user.profile.displayName),
                        display_name_folded = \(user.profile.displayName?.folded), bio = \(user.profile.bio), city = \(user.profile.city),
                        avatar_url = \(user.profile.avatarURL), updated_at = \(Timestamp.text(user.updatedAt))
                    WHERE id = \(user.id)
                    """,
                    logger: database.logger
                )
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == PostgresError.Code.uniqueViolation.raw {
                try await connection.query("ROLLBACK TO SAVEPOINT user_update", logger: database.logger)
                try await PostgresAccountRepository.checkUnique(user, on: connection, database: database)
                throw error
            }
        }
    }

    public func updatePassword(userID: String, hash: String, keeping tokenHash: String?, now: Date) async throws {
        try await database.write { connection in
            try await connection.execute(
                "UPDATE user_account SET password_hash = \(hash), updated_at = \(Timestamp.text(now)) WHERE id = \(userID)",
                logger: database.logger
            )
            try await connection.execute(
                "DELETE FROM session WHERE user_id = \(userID) AND token_hash IS DISTINCT FROM \(tokenHash)",
                logger: database.logger
            )
        }
    }

    public func delete(userID: String) async throws {
        try await database.write { connection in
            // Locks in the order the other writers take them: the groups they are in, then their account (a rating's
            // save holds the rater's account before the place), then the places they rated, in the order of their ids.
            let groupIDs = try await PostgresAccountRepository.lockGroupsAndAccount(of: userID, on: connection, database: database)
            let rated = try await connection.rows(
                "SELECT place_id FROM rating WHERE user_id = \(userID) ORDER BY place_id",
                logger: database.logger
            ).map { row in try row.get("place_id", as: String.self) }
            let photographed = try await PostgresPhotoRepository.placesPhotographed(by: userID, on: connection, logger: database.logger)
            try await PostgresPlaceRepository.lockPlaces(Array(Set(rated + photographed)), on: connection, logger: database.logger)
            try await connection.execute("DELETE FROM rating WHERE user_id = \(userID)", logger: database.logger)
            // Their photos and picture, with the bytes no one else's photo shows (their places' counts change).
            try await PostgresPhotoRepository.removePhotos(ofUser: userID, on: connection, logger: database.logger)
            // Sessions, settings, statuses, blocks, favourites, friendships, memberships, invitations, notifications and personal
            // collections go with the account (ON DELETE CASCADE); places they added to others' collections stay,
            // with no one named as having added them (ON DELETE SET NULL).
            try await connection.execute("DELETE FROM user_account WHERE id = \(userID)", logger: database.logger)
            try await PostgresGroupRepository.afterLeaving(groupIDs, on: connection, database: database)
            for placeID in rated {
                _ = try await PostgresPlaceRepository.recountRatings(of: placeID, on: connection, logger: database.logger)
            }
            try await connection.execute(
                "UPDATE place SET owner_id = NULL, revision = \(unescaped: PostgresPlaceRow.writerStamp) WHERE owner_id = \(userID)",
                logger: database.logger
            )
        }
    }


    /// The groups the user belongs to, each locked (in id order) against other changes to its membership until the
    /// transaction ends; then the user's account, so they join no group (nor rate any place) meanwhile.
    static func lockGroupsAndAccount(
        of userID: String,
        on connection: PostgresConnection,
        database: PostgresPlacesDatabase
    ) async throws
        -> [String]
    {
        let memberships: PostgresQuery = "SELECT group_id FROM group_member WHERE user_id = \(userID) ORDER BY group_id"
        let groupIDs = try await connection.rows(memberships, logger: database.logger).map { row in try row.get("group_id", as: String.self) }
        try await PostgresGroupRepository.lock(groupIDs, on: connection, database: database)
        try await connection.execute("SELECT 1 FROM user_account WHERE id = \(userID) FOR UPDATE", logger: database.logger)
        // A group joined before the account was locked is locked too (rare: it waits on the group after the account).
        let joined = try await connection.rows(memberships, logger: database.logger).map { row in try row.get("group_id", as: String.self) }
            .filter { !groupIDs.contains($0) }
        try await PostgresGroupRepository.lock(joined, on: connection, database: database)
        return groupIDs + joined
    }

    public func searchUsers(_ text: String, viewerID: String?, page: PageRequest) async throws -> Page<User> {
        let literal = text.folded.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        let pattern = "%" + literal + "%"
        let after = try Keyset([.init(sql: "username_key")], page: page)
        // lower() under collation "C" folds ASCII only, as SQLite's LIKE ignores case.
        let rows = try await database.read { connection in
            try await connection.rows(
                """
                SELECT * FROM user_account
                WHERE (lower(username_key) LIKE lower(\(pattern) COLLATE "C") ESCAPE '\\'
                    OR lower(display_name_folded) LIKE lower(\(pattern) COLLATE "C") ESCAPE '\\')
                    AND NOT EXISTS (SELECT 1 FROM user_block k WHERE (k.blocker_id = \(viewerID ?? "") AND k.blocked_id = user_account.id)
                        OR (k.blocker_id = user_account.id AND k.blocked_id = \(viewerID ?? "")))
                    AND \(after) \(orderBy: after) LIMIT \(page.fetchLimit)
                """,
                logger: database.logger
            )
        }
        return try page.page(rows) { row in (try PostgresAccountRepository.user(row), [try row.get("username_key")]) }
    }

    public func insert(_ session: Session) async throws {
        try await database.write { connection in
            // Expired sessions of the same person are swept as new ones are made.
            try await connection.execute(
                "DELETE FROM session WHERE user_id = \(session.userID) AND expires_at <= \(Timestamp.text(session.createdAt))",
                logger: database.logger
            )
            try await connection.execute(
                """
                INSERT INTO session (token_hash, user_id, created_at, expires_at)
                VALUES (\(session.tokenHash), \(session.userID), \(Timestamp.text(session.createdAt)), \(Timestamp.text(session.expiresAt)))
                """,
                logger: database.logger
            )
        }
    }

    public func session(tokenHash: String) async throws -> (session: Session, user: User)? {
        let row = try await database.read { connection in
            try await connection.row(SessionLookup(tokenHash: tokenHash), logger: database.logger)
        }
        guard let row else { return nil }
        let session = Session(
            tokenHash: try row.get("token_hash"),
            userID: try row.get("id"),
            createdAt: try row.date("session_created_at"),
            expiresAt: try row.date("session_expires_at")
        )
        return (session, try PostgresAccountRepository.user(row))
    }

    public func deleteSession(tokenHash: String) async throws {
        // One statement: a transaction of its own.
        _ = try await database.change { connection in
            try await connection.execute("DELETE FROM session WHERE token_hash = \(tokenHash)", logger: database.logger)
        }
    }

    public func settings(userID: String) async throws -> UserSettings? {
        let text = try await database.read { connection in
            try await connection.value("SELECT settings FROM user_settings WHERE user_id = \(userID)", as: String.self, logger: database.logger)
        }
        return try text.map { text throws(PlacesError) in try StoredText.decodeSettings(text, userID: userID) }
    }

    public func settings(userIDs: [String]) async throws -> [String: UserSettings] {
        guard !userIDs.isEmpty else { return [:] }
        let rows = try await database.read { connection in
            try await connection.rows(
                "SELECT user_id, settings FROM user_settings WHERE user_id = ANY(\(Array(Set(userIDs))))",
                logger: database.logger
            )
        }
        var found: [String: UserSettings] = [:]
        for row in rows {
            let userID: String = try row.get("user_id")
            found[userID] = try StoredText.decodeSettings(try row.get("settings"), userID: userID)
        }
        return found
    }

    public func save(_ settings: UserSettings, userID: String, now: Date) async throws {
        let text = String(decoding: try PlacesJSON.makeEncoder().encode(settings), as: UTF8.self)
        // One statement: a transaction of its own.
        _ = try await database.change { connection in
            try await connection.execute(
                """
                INSERT INTO user_settings (user_id, settings, updated_at) VALUES (\(userID), \(text), \(Timestamp.text(now)))
                ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at
                """,
                logger: database.logger
            )
        }
    }

    public func export(userID: String) async throws -> AccountExport? {
        // One snapshot for every part, as one read transaction gives on SQLite.
        try await database.write { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: database.logger)
            guard let user = try await connection.row("SELECT * FROM user_account WHERE id = \(userID)", logger: database.logger) else {
                return nil
            }
            let settings = try await connection.value(
                "SELECT settings FROM user_settings WHERE user_id = \(userID)",
                as: String.self,
                logger: database.logger
            ).map { text throws(PlacesError) in try StoredText.decodeSettings(text, userID: userID) }
            let blocks = try await PostgresAccountRepository.exportedBlocks(of: userID, on: connection, database: database)
            return AccountExport(
                account: OwnUser(try PostgresAccountRepository.user(user)),
                settings: settings ?? UserSettings(),
                sessions: try await PostgresAccountRepository.sessions(of: userID, on: connection, database: database),
                favorites: try await PostgresAccountRepository.favorites(of: userID, on: connection, database: database),
                ratings: try await PostgresAccountRepository.ratings(of: userID, on: connection, database: database),
                places: try await connection.rows(
                    "SELECT id FROM place WHERE owner_id = \(userID) ORDER BY id",
                    logger: database.logger
                ).map { row in try row.get("id", as: String.self) },
                blocked: blocks.blocked,
                status: blocks.status
            )
        }
    }

    /// The user's sessions, oldest first, without their tokens' hashes.
    static func sessions(
        of userID: String,
        on connection: PostgresConnection,
        database: PostgresPlacesDatabase
    ) async throws
        -> [AccountExport.SessionInfo]
    {
        try await connection.rows(
            "SELECT created_at, expires_at FROM session WHERE user_id = \(userID) ORDER BY created_at",
            logger: database.logger
        ).map { row in AccountExport.SessionInfo(createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at")) }
    }

    /// The user's favourites, in the order they were marked.
    static func favorites(
        of userID: String,
        on connection: PostgresConnection,
        database: PostgresPlacesDatabase
    ) async throws
        -> [AccountExport.FavoriteInfo]
    {
        try await connection.rows(
            "SELECT place_id, created_at FROM favorite WHERE user_id = \(userID) ORDER BY created_at, place_id",
            logger: database.logger
        ).map { row in AccountExport.FavoriteInfo(placeId: try row.get("place_id"), createdAt: try row.date("created_at")) }
    }

    /// The user's ratings, by place id.
    static func ratings(
        of userID: String,
        on connection: PostgresConnection,
        database: PostgresPlacesDatabase
    ) async throws
        -> [Rating]
    {
        try await connection.rows("SELECT * FROM rating WHERE user_id = \(userID) ORDER BY place_id", logger: database.logger).map {
            row in
            Rating(
                placeId: try row.get("place_id"),
                userId: try row.get("user_id"),
                stars: try row.get("stars"),
                review: try row.get("review"),
                createdAt: try row.date("created_at"),
                updatedAt: try row.date("updated_at")
            )
        }
    }

    /// A session and its user by the token's hash: every signed-in request runs it.
    struct SessionLookup: PreparedStatement {
        static let name = "places_session_lookup"
        static let sql = """
            SELECT u.\(userColumns.joined(separator: ", u.")), s.token_hash, s.created_at AS session_created_at,
                s.expires_at AS session_expires_at
            FROM session s JOIN user_account u ON u.id = s.user_id WHERE s.token_hash = $1
            """
        static let bindingDataTypes: [PostgresDataType] = [.text]
        let tokenHash: String
        var values: [(any PostgresThrowingDynamicTypeEncodable & Sendable)?] { [tokenHash] }
    }

    /// The columns of `user_account` that `user(_:)` reads.
    static let userColumns = [
        "id", "username", "email", "phone", "password_hash", "display_name", "bio", "city", "avatar_url", "picture_id", "created_at",
        "updated_at",
    ]

    /// A user from a row holding `user_account`'s columns (other repositories read members and participants with it).
    static func user(_ row: PostgresRandomAccessRow) throws -> User {
        User(
            id: try row.get("id"),
            username: try row.get("username"),
            email: try row.get("email"),
            phone: try row.get("phone"),
            passwordHash: try row.get("password_hash"),
            profile: User.Profile(
                displayName: try row.get("display_name"),
                bio: try row.get("bio"),
                city: try row.get("city"),
                avatarURL: try row.get("avatar_url"),
                pictureURL: try row.get("picture_id", as: String?.self).map(Photo.url(id:))
            ),
            createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at")
        )
    }
}

extension PostgresPlacesDatabase {
    /// The account repository over this database.
    public var accounts: PostgresAccountRepository { PostgresAccountRepository(database: self) }
}
