import Foundation
import GRDB
import PlacesCore

/// Photos and their bytes in SQLite: the bytes as BLOBs of at most `PhotoContent.chunkSize`, once per content hash.
public struct SQLitePhotoRepository: PhotoRepository {
    let database: PlacesDatabase

    public func add(_ photo: Photo, content: PhotoContent, rules: PhotoRules) async throws -> PhotoAddition {
        guard let placeID = photo.placeID else { throw PlacesError(.internalError, "a photo of a place needs the place") }
        return try await database.write { db in
            guard try db.exists("SELECT 1 FROM place WHERE id = ? AND deleted_at IS NULL", arguments: [placeID]) else {
                return .placeGone
            }
            let mine = try Int.fetchOne(
                db,
                sql: "SELECT COUNT(*) FROM photo WHERE place_id = ? AND user_id = ?",
                arguments: [placeID, photo.userID]
            ) ?? 0
            guard mine < rules.perPlace else { return .perPlaceReached }
            if let oldest = try rules.window.oldestCounted(in: "photo", where: "user_id", is: photo.userID, db) {
                return .tooMany(oldestCounted: oldest)
            }
            try SQLitePhotoRepository.store(photo, content: content, in: db)
            try SQLitePhotoRepository.refreshPlaces([placeID], in: db)
            return .added
        }
    }

    public func setPicture(_ photo: Photo, content: PhotoContent) async throws -> Bool {
        try await database.write { db in
            let old = try Row.fetchOne(db, sql: "SELECT picture_id FROM user_account WHERE id = ?", arguments: [photo.userID])
            guard let old else { return false }
            try SQLitePhotoRepository.store(photo, content: content, in: db)
            try db.execute(
                sql: "UPDATE user_account SET picture_id = ?, updated_at = ? WHERE id = ?",
                arguments: [photo.id, Timestamp.text(photo.createdAt), photo.userID]
            )
            if let oldID: String = old["picture_id"] { try SQLitePhotoRepository.remove(ids: [oldID], in: db) }
            return true
        }
    }

    public func removePicture(userID: String) async throws -> Bool {
        try await database.write { db in
            guard let id = try String.fetchOne(db, sql: "SELECT picture_id FROM user_account WHERE id = ?", arguments: [userID]) else {
                return false
            }
            try db.execute(sql: "UPDATE user_account SET picture_id = NULL WHERE id = ?", arguments: [userID])
            try SQLitePhotoRepository.remove(ids: [id], in: db)
            return true
        }
    }

    public func photo(id: String) async throws -> StoredPhoto? {
        try await database.readStatement { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT \(SQLitePhotoRepository.photoColumns), p.owner_id, p.deleted_at IS NOT NULL AS place_deleted, c.chunk_count
                    FROM photo AS f JOIN user_account AS u ON u.id = f.user_id JOIN photo_content AS c ON c.hash = f.hash
                    LEFT JOIN place AS p ON p.id = f.place_id
                    WHERE f.id = ?
                    """,
                arguments: [id]
            ).map { row in
                StoredPhoto(
                    photo: try SQLitePhotoRepository.photo(row),
                    placeOwnerID: row["owner_id"],
                    placeDeleted: row["place_deleted"] ?? false,
                    chunkCount: row["chunk_count"]
                )
            }
        }
    }

    public func chunk(contentHash: String, index: Int) async throws -> [UInt8]? {
        try await database.readStatement { db in
            try Data.fetchOne(db, sql: "SELECT bytes FROM photo_chunk WHERE hash = ? AND seq = ?", arguments: [contentHash, index])
                .map { [UInt8]($0) }
        }
    }

    public func photos(placeID: String, page: PageRequest) async throws -> Page<Photo> {
        let after = try Keyset([.init(sql: "f.created_at", descending: true), .init(sql: "f.id", descending: true)], page: page)
        return try await database.readStatement { db in
            try after.page(page, "\(SQLitePhotoRepository.select) WHERE f.place_id = ?", arguments: [placeID], in: db) { row in
                (try SQLitePhotoRepository.photo(row), [row["created_at"], row["id"]])
            }
        }
    }

    public func photos(userID: String) async throws -> [Photo] {
        try await database.readStatement { db in
            try Row.fetchAll(db, sql: "\(SQLitePhotoRepository.select) WHERE f.user_id = ? ORDER BY f.created_at, f.id", arguments: [userID])
                .map(SQLitePhotoRepository.photo)
        }
    }

    public func delete(id: String) async throws -> Bool {
        try await database.write { db in
            guard try db.exists("SELECT 1 FROM photo WHERE id = ?", arguments: [id]) else { return false }
            try db.execute(sql: "UPDATE user_account SET picture_id = NULL WHERE picture_id = ?", arguments: [id])
            try SQLitePhotoRepository.remove(ids: [id], in: db)
            return true
        }
    }

    // MARK: - Shared with account deletion

    /// Removes every photo the person added (their picture too), in the account deletion's transaction.
    static func removePhotos(ofUser userID: String, in db: Database) throws {
        let ids = try String.fetchAll(db, sql: "SELECT id FROM photo WHERE user_id = ?", arguments: [userID])
        try remove(ids: ids, in: db)
    }

    /// Removes photos by id, then the bytes no photo shows any more, and brings their places' counts and covers up to
    /// date (stamping them, so the change feed tells every index).
    static func remove(ids: [String], in db: Database) throws {
        guard !ids.isEmpty else { return }
        let list = SQLiteAccountRepository.jsonArray(ids)
        let places = try String.fetchAll(
            db,
            sql: "SELECT DISTINCT place_id FROM photo WHERE id IN (SELECT value FROM json_each(?)) AND place_id IS NOT NULL",
            arguments: [list]
        )
        let hashes = try String.fetchAll(db, sql: "SELECT DISTINCT hash FROM photo WHERE id IN (SELECT value FROM json_each(?))", arguments: [list])
        try db.execute(sql: "DELETE FROM photo WHERE id IN (SELECT value FROM json_each(?))", arguments: [list])
        for hash in hashes where try !db.exists("SELECT 1 FROM photo WHERE hash = ?", arguments: [hash]) {
            try db.execute(sql: "DELETE FROM photo_chunk WHERE hash = ?", arguments: [hash])
            try db.execute(sql: "DELETE FROM photo_content WHERE hash = ?", arguments: [hash])
        }
        try refreshPlaces(places, in: db)
    }

    /// Stores the photo's row, and its bytes unless a photo with the same content stored them already.
    private static func store(_ photo: Photo, content: PhotoContent, in db: Database) throws {
        if try !db.exists("SELECT 1 FROM photo_content WHERE hash = ?", arguments: [content.hash]) {
            let chunks = content.chunks
            try db.execute(
                sql: "INSERT INTO photo_content (hash, byte_count, chunk_count) VALUES (?, ?, ?)",
                arguments: [content.hash, content.bytes.count, chunks.count]
            )
            let insert = try db.cachedStatement(sql: "INSERT INTO photo_chunk (hash, seq, bytes) VALUES (?, ?, ?)")
            for (seq, chunk) in chunks.enumerated() {
                try insert.execute(arguments: [content.hash, seq, Data(chunk)])
            }
        }
        try db.execute(
            sql: """
                INSERT INTO photo (id, place_id, user_id, hash, format, width, height, byte_count, caption, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                photo.id, photo.placeID, photo.userID, content.hash, photo.format.rawValue, photo.width, photo.height,
                content.bytes.count, photo.caption, Timestamp.text(photo.createdAt),
            ]
        )
    }

    /// Brings the places' photo counts and covers (their newest photo) up to date, stamping them with the writer's
    /// revision: a photo change is a place change on the feed.
    static func refreshPlaces(_ placeIDs: [String], in db: Database) throws {
        guard !placeIDs.isEmpty else { return }
        let revision = try SQLitePlaceRepository.writerStamp(db)
        for placeID in placeIDs {
            try db.execute(
                sql: """
                    UPDATE place SET photo_count = (SELECT COUNT(*) FROM photo WHERE place_id = ?1),
                        cover_photo_id = (SELECT id FROM photo WHERE place_id = ?1 ORDER BY created_at DESC, id DESC LIMIT 1),
                        revision = ?2
                    WHERE id = ?1
                    """,
                arguments: [placeID, revision]
            )
        }
    }

    /// The columns a photo is read from (`f` the photo, `u` its adder).
    private static let photoColumns =
        "f.id, f.place_id, f.user_id, u.username, f.hash, f.format, f.width, f.height, f.byte_count, f.caption, f.created_at"

    /// Photos with their adders' usernames.
    private static let select = "SELECT \(photoColumns) FROM photo AS f JOIN user_account AS u ON u.id = f.user_id"

    private static func photo(_ row: Row) throws -> Photo {
        guard let format = PhotoFormat(rawValue: row["format"]) else {
            throw PlacesError(.internalError, "stored photo has an unknown format")
        }
        return Photo(
            id: row["id"],
            placeID: row["place_id"],
            userID: row["user_id"],
            username: row["username"],
            format: format,
            width: row["width"],
            height: row["height"],
            byteCount: row["byte_count"],
            contentHash: row["hash"],
            caption: row["caption"],
            createdAt: row.date("created_at")
        )
    }
}

extension PlacesDatabase {
    /// The photo repository over this database.
    public var photos: SQLitePhotoRepository { SQLitePhotoRepository(database: self) }
}
