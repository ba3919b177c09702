import Foundation
import Logging
import PlacesCore
import PostgresNIO

/// Photos and their bytes in PostgreSQL: the bytes as `bytea` of at most `PhotoContent.chunkSize`, once per content
/// hash.
///
/// Locks, in the order account deletion takes them too: the person's account (shared with other photo writes, exclusive
/// of the account's deletion), then the place's row (so the counts of a place's photos agree, and the place cannot be
/// deleted halfway), then the content's row, which an addition's upsert and a removal's check of the last reference
/// both hold: bytes are never removed under a photo that was just stored with them.
public struct PostgresPhotoRepository: PhotoRepository {
    let database: PostgresPlacesDatabase

    public func add(_ photo: Photo, content: PhotoContent, rules: PhotoRules) async throws -> PhotoAddition {
        guard let placeID = photo.placeID else { throw PlacesError(.internalError, "a photo of a place needs the place") }
        let logger = database.logger
        return try await database.write { connection in
            // One person's additions are counted one at a time, whichever instance takes them: the bound is exact.
            try await connection.query(
                "SELECT pg_advisory_xact_lock(hashtextextended('places/photos/' || \(photo.userID), 0))",
                logger: logger
            )
            guard try await connection.row("SELECT 1 FROM user_account WHERE id = \(photo.userID) FOR KEY SHARE", logger: logger) != nil else {
                throw PlacesError.unauthorized("the account is gone")
            }
            let place = try await connection.row(
                "SELECT deleted_at FROM place WHERE id = \(placeID) FOR NO KEY UPDATE",
                logger: logger
            )
            guard let place, try place.get("deleted_at", as: String?.self) == nil else { return .placeGone }
            let mine = try await connection.value(
                "SELECT count(*) FROM photo WHERE place_id = \(placeID) AND user_id = \(photo.userID)",
                as: Int.self,
                logger: logger
            ) ?? 0
            guard mine < rules.perPlace else { return .perPlaceReached }
            if let oldest = try await connection.value(
                """
                SELECT created_at FROM photo WHERE user_id = \(photo.userID) AND created_at >= \(Timestamp.text(rules.window.since))
                ORDER BY created_at DESC LIMIT 1 OFFSET \(max(rules.window.allowed - 1, 0))
                """,
                as: String.self,
                logger: logger
            ) {
                return .tooMany(oldestCounted: Timestamp.date(oldest) ?? rules.window.since)
            }
            try await PostgresPhotoRepository.store(photo, content: content, on: connection, logger: logger)
            try await PostgresPhotoRepository.refreshPlace(placeID, on: connection, logger: logger)
            return .added
        }
    }

    public func setPicture(_ photo: Photo, content: PhotoContent) async throws -> Bool {
        let logger = database.logger
        return try await database.write { connection in
            guard
                let account = try await connection.row(
                    "SELECT picture_id FROM user_account WHERE id = \(photo.userID) FOR NO KEY UPDATE",
                    logger: logger
                )
            else { return false }
            try await PostgresPhotoRepository.store(photo, content: content, on: connection, logger: logger)
            try await connection.execute(
                "UPDATE user_account SET picture_id = \(photo.id), updated_at = \(Timestamp.text(photo.createdAt)) WHERE id = \(photo.userID)",
                logger: logger
            )
            if let old = try account.get("picture_id", as: String?.self) {
                try await PostgresPhotoRepository.remove(ids: [old], on: connection, logger: logger)
            }
            return true
        }
    }

    public func removePicture(userID: String) async throws -> Bool {
        let logger = database.logger
        return try await database.write { connection in
            let account = try await connection.row(
                "SELECT picture_id FROM user_account WHERE id = \(userID) FOR NO KEY UPDATE",
                logger: logger
            )
            guard let id = try account?.get("picture_id", as: String?.self) else { return false }
            try await connection.execute("UPDATE user_account SET picture_id = NULL WHERE id = \(userID)", logger: logger)
            try await PostgresPhotoRepository.remove(ids: [id], on: connection, logger: logger)
            return true
        }
    }

    public func photo(id: String) async throws -> StoredPhoto? {
        let row = try await database.read { [logger = database.logger] connection in
            try await connection.row(
                """
                SELECT \(unescaped: PostgresPhotoRepository.photoColumns), p.owner_id, p.deleted_at IS NOT NULL AS place_deleted,
                    c.chunk_count
                FROM photo AS f JOIN user_account AS u ON u.id = f.user_id JOIN photo_content AS c ON c.hash = f.hash
                LEFT JOIN place AS p ON p.id = f.place_id
                WHERE f.id = \(id)
                """,
                logger: logger
            )
        }
        return try row.map { row in
            StoredPhoto(
                photo: try PostgresPhotoRepository.photo(row),
                placeOwnerID: try row.get("owner_id"),
                placeDeleted: try row.get("place_deleted", as: Bool?.self) ?? false,
                chunkCount: try row.get("chunk_count", as: Int.self)
            )
        }
    }

    public func chunk(contentHash: String, index: Int) async throws -> [UInt8]? {
        try await database.read { [logger = database.logger] connection in
            try await connection.value(
                "SELECT bytes FROM photo_chunk WHERE hash = \(contentHash) AND seq = \(index)",
                as: Data.self,
                logger: logger
            ).map { [UInt8]($0) }
        }
    }

    public func photos(placeID: String, page: PageRequest) async throws -> Page<Photo> {
        let after = try Keyset([.init(sql: "f.created_at", descending: true), .init(sql: "f.id", descending: true)], page: page)
        let rows = try await database.read { [logger = database.logger] connection in
            try await connection.rows(
                """
                \(unescaped: PostgresPhotoRepository.select) WHERE f.place_id = \(placeID) AND \(after) \(orderBy: after)
                LIMIT \(page.fetchLimit)
                """,
                logger: logger
            )
        }
        return try page.page(rows) { row in
            (try PostgresPhotoRepository.photo(row), [try row.get("created_at"), try row.get("id")])
        }
    }

    public func photos(userID: String) async throws -> [Photo] {
        let rows = try await database.read { [logger = database.logger] connection in
            try await connection.rows(
                "\(unescaped: PostgresPhotoRepository.select) WHERE f.user_id = \(userID) ORDER BY f.created_at, f.id",
                logger: logger
            )
        }
        return try rows.map(PostgresPhotoRepository.photo)
    }

    public func delete(id: String) async throws -> Bool {
        let logger = database.logger
        return try await database.write { connection in
            guard let row = try await connection.row("SELECT place_id, user_id FROM photo WHERE id = \(id)", logger: logger) else {
                return false
            }
            if let placeID = try row.get("place_id", as: String?.self) {
                try await PostgresPlaceRepository.lockPlaces([placeID], on: connection, logger: logger)
            } else {
                try await connection.execute(
                    "UPDATE user_account SET picture_id = NULL WHERE id = \(try row.get("user_id", as: String.self)) AND picture_id = \(id)",
                    logger: logger
                )
            }
            return try await PostgresPhotoRepository.remove(ids: [id], on: connection, logger: logger) > 0
        }
    }

    // MARK: - Shared with account deletion

    /// The places of the person's photos, in id order: account deletion locks them with the places they rated.
    static func placesPhotographed(by userID: String, on connection: PostgresConnection, logger: Logger) async throws -> [String] {
        try await connection.rows(
            "SELECT DISTINCT place_id FROM photo WHERE user_id = \(userID) AND place_id IS NOT NULL ORDER BY place_id",
            logger: logger
        ).map { try $0.get("place_id", as: String.self) }
    }

    /// Removes every photo the person added (their picture too), in the account deletion's transaction (which holds
    /// their account and the places of their photos).
    static func removePhotos(ofUser userID: String, on connection: PostgresConnection, logger: Logger) async throws {
        let ids = try await connection.rows("SELECT id FROM photo WHERE user_id = \(userID)", logger: logger)
            .map { try $0.get("id", as: String.self) }
        try await remove(ids: ids, on: connection, logger: logger)
    }

    /// Removes photos by id (the caller holds their places' rows), then the bytes no photo shows any more (each
    /// content's row held while its last reference is looked for), and brings the places' counts and covers up to date.
    /// Answers how many photos were removed.
    @discardableResult
    static func remove(ids: [String], on connection: PostgresConnection, logger: Logger) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        let removed = try await connection.rows(
            "DELETE FROM photo WHERE id = ANY(\(ids)::text[]) RETURNING place_id, hash",
            logger: logger
        )
        var places = Set<String>()
        var hashes = Set<String>()
        for row in removed {
            if let place = try row.get("place_id", as: String?.self) { places.insert(place) }
            hashes.insert(try row.get("hash", as: String.self))
        }
        for hash in hashes.sorted() {
            try await connection.execute("SELECT 1 FROM photo_content WHERE hash = \(hash) FOR UPDATE", logger: logger)
            // A new statement: it sees a photo that another transaction stored with these bytes and committed while
            // this one waited for the content's row.
            try await connection.execute(
                "DELETE FROM photo_content WHERE hash = \(hash) AND NOT EXISTS (SELECT 1 FROM photo WHERE hash = \(hash))",
                logger: logger
            )
        }
        for place in places.sorted() { try await refreshPlace(place, on: connection, logger: logger) }
        return removed.count
    }

    /// Stores the photo's row, and its bytes unless they are stored already (the content's row is held until commit).
    private static func store(_ photo: Photo, content: PhotoContent, on connection: PostgresConnection, logger: Logger) async throws {
        let chunks = content.chunks
        let inserted = try await connection.value(
            """
            INSERT INTO photo_content (hash, byte_count, chunk_count) VALUES (\(content.hash), \(content.bytes.count), \(chunks.count))
            ON CONFLICT (hash) DO UPDATE SET hash = excluded.hash
            RETURNING xmax = 0
            """,
            as: Bool.self,
            logger: logger
        ) ?? false
        if inserted {
            for (seq, chunk) in chunks.enumerated() {
                try await connection.execute(
                    "INSERT INTO photo_chunk (hash, seq, bytes) VALUES (\(content.hash), \(seq), \(Data(chunk)))",
                    logger: logger
                )
            }
        }
        try await connection.execute(
            """
            INSERT INTO photo (id, place_id, user_id, hash, format, width, height, byte_count, caption, created_at)
            VALUES (\(photo.id), \(photo.placeID), \(photo.userID), \(content.hash), \(photo.format.rawValue), \(photo.width),
                \(photo.height), \(content.bytes.count), \(photo.caption), \(Timestamp.text(photo.createdAt)))
            """,
            logger: logger
        )
    }

    /// Brings the place's photo count and cover (its newest photo) up to date and stamps it: a photo change is a place
    /// change on the feed. The caller holds the place's row, so the count read here is every committed photo's.
    private static func refreshPlace(_ placeID: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.execute(
            """
            UPDATE place SET photo_count = (SELECT count(*) FROM photo WHERE place_id = \(placeID)),
                cover_photo_id = (SELECT id FROM photo WHERE place_id = \(placeID) ORDER BY created_at DESC, id DESC LIMIT 1),
                revision = \(unescaped: PostgresPlaceRow.writerStamp)
            WHERE id = \(placeID)
            """,
            logger: logger
        )
    }

    /// The columns a photo is read from (`f` the photo, `u` its adder).
    private static let photoColumns =
        "f.id, f.place_id, f.user_id, u.username, f.hash, f.format, f.width, f.height, f.byte_count, f.caption, f.created_at"

    /// Photos with their adders' usernames.
    private static let select = "SELECT \(photoColumns) FROM photo AS f JOIN user_account AS u ON u.id = f.user_id"

    private static func photo(_ row: PostgresRandomAccessRow) throws -> Photo {
        guard let format = PhotoFormat(rawValue: try row.get("format", as: String.self)) else {
            throw PlacesError(.internalError, "stored photo has an unknown format")
        }
        return Photo(
            id: try row.get("id"),
            placeID: try row.get("place_id"),
            userID: try row.get("user_id"),
            username: try row.get("username"),
            format: format,
            width: try row.get("width", as: Int.self),
            height: try row.get("height", as: Int.self),
            byteCount: try row.get("byte_count", as: Int.self),
            contentHash: try row.get("hash"),
            caption: try row.get("caption"),
            createdAt: try row.date("created_at")
        )
    }
}

extension PostgresPlacesDatabase {
    /// The photo repository over this database.
    public var photos: PostgresPhotoRepository { PostgresPhotoRepository(database: self) }
}
