import Foundation
import GRDB
import PlacesCore

/// Collections and their ordered entries in SQLite. Positions stay dense (0..<count); every change to the entries
/// bumps the collection's `updated_at` in the same transaction.
public struct SQLiteCollectionRepository: CollectionRepository {
    let database: PlacesDatabase

    public func insert(_ collection: PlaceCollection) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO place_collection (id, owner_id, group_id, name, description, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    collection.id, collection.ownerId, collection.groupId, collection.name, collection.description,
                    Timestamp.text(collection.createdAt), Timestamp.text(collection.updatedAt),
                ]
            )
        }
    }

    public func collection(id: String) async throws -> PlaceCollection? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM place_collection WHERE id = ?", arguments: [id])
                .map(SQLiteCollectionRepository.collection)
        }
    }

    public func collections(ownerID: String, groupIDs: [String], page: PageRequest) async throws -> Page<PlaceCollection> {
        let after = try Keyset([.init(sql: "name COLLATE NOCASE"), .init(sql: "name"), .init(sql: "id")], page: page)
        return try await database.read { db in
            try after.page(
                page,
                "SELECT * FROM place_collection WHERE (owner_id = ? OR group_id IN (SELECT value FROM json_each(?)))",
                arguments: [ownerID, SQLiteAccountRepository.jsonArray(groupIDs)],
                in: db
            ) { row in (try SQLiteCollectionRepository.collection(row), [row["name"], row["name"], row["id"]]) }
        }
    }

    public func collectionCount(ownerID: String?, groupID: String?) async throws -> Int {
        try await database.read { db in
            let column = ownerID == nil ? "group_id" : "owner_id"
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM place_collection WHERE \(column) = ?", arguments: [ownerID ?? groupID]) ?? 0
        }
    }

    public func update(_ collection: PlaceCollection) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE place_collection SET name = ?, description = ?, updated_at = ? WHERE id = ?",
                arguments: [collection.name, collection.description, Timestamp.text(collection.updatedAt), collection.id]
            )
        }
    }

    public func delete(id: String) async throws {
        try await database.write { db in
            // Its entries go with it (ON DELETE CASCADE).
            try db.execute(sql: "DELETE FROM place_collection WHERE id = ?", arguments: [id])
        }
    }

    public func entries(collectionID: String) async throws -> [CollectionEntry] {
        try await database.read { db in
            try SQLiteCollectionRepository.entries(collectionID, in: db)
        }
    }

    public func add(placeID: String, to collectionID: String, at position: Int?, by userID: String, now: Date) async throws {
        try await database.write { db in
            try SQLiteCollectionRepository.requireCollection(collectionID, in: db)
            if try db.exists("SELECT 1 FROM collection_entry WHERE collection_id = ? AND place_id = ?", arguments: [collectionID, placeID]) {
                throw PlacesError(.conflict, "place \(PlacesError.quoted(placeID)) is already in this collection", field: "placeId")
            }
            guard try db.exists("SELECT 1 FROM place WHERE id = ?", arguments: [placeID]) else {
                throw PlacesError.unknownReference("placeId", "no place with id \(PlacesError.quoted(placeID))")
            }
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM collection_entry WHERE collection_id = ?", arguments: [collectionID]) ?? 0
            let slot = min(max(position ?? count, 0), count)
            try db.execute(
                sql: "UPDATE collection_entry SET position = position + 1 WHERE collection_id = ? AND position >= ?",
                arguments: [collectionID, slot]
            )
            try db.execute(
                sql: "INSERT INTO collection_entry (collection_id, place_id, position, added_by, added_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [collectionID, placeID, slot, userID, Timestamp.text(now)]
            )
            try SQLiteCollectionRepository.touch(collectionID, now: now, in: db)
        }
    }

    public func remove(placeID: String, from collectionID: String, now: Date) async throws -> Bool {
        try await database.write { db in
            let position = try Int.fetchOne(
                db,
                sql: "SELECT position FROM collection_entry WHERE collection_id = ? AND place_id = ?",
                arguments: [collectionID, placeID]
            )
            guard let position else { return false }
            try db.execute(
                sql: "DELETE FROM collection_entry WHERE collection_id = ? AND place_id = ?",
                arguments: [collectionID, placeID]
            )
            try db.execute(
                sql: "UPDATE collection_entry SET position = position - 1 WHERE collection_id = ? AND position > ?",
                arguments: [collectionID, position]
            )
            try SQLiteCollectionRepository.touch(collectionID, now: now, in: db)
            return true
        }
    }

    public func reorder(collectionID: String, placeIDs: [String], now: Date) async throws {
        try await database.write { db in
            try SQLiteCollectionRepository.requireCollection(collectionID, in: db)
            let stored = try SQLiteCollectionRepository.entries(collectionID, in: db).map(\.placeID)
            guard placeIDs.count == stored.count, Set(placeIDs) == Set(stored) else {
                throw PlacesError.invalid("placeIds", "placeIds must name each of the collection's \(stored.count) places exactly once")
            }
            let statement = try db.cachedStatement(
                sql: "UPDATE collection_entry SET position = ? WHERE collection_id = ? AND place_id = ?"
            )
            for (position, placeID) in placeIDs.enumerated() {
                try statement.execute(arguments: [position, collectionID, placeID])
            }
            try SQLiteCollectionRepository.touch(collectionID, now: now, in: db)
        }
    }

    static func entries(_ collectionID: String, in db: Database) throws -> [CollectionEntry] {
        try Row.fetchAll(
            db,
            sql: "SELECT place_id, added_by, added_at FROM collection_entry WHERE collection_id = ? ORDER BY position, place_id",
            arguments: [collectionID]
        ).map { row in
            CollectionEntry(placeID: row[0], addedBy: row[1], addedAt: row.date(2))
        }
    }

    static func requireCollection(_ id: String, in db: Database) throws {
        guard try db.exists("SELECT 1 FROM place_collection WHERE id = ?", arguments: [id]) else {
            throw PlacesError.notFound("no collection with id \(PlacesError.quoted(id))")
        }
    }

    static func touch(_ id: String, now: Date, in db: Database) throws {
        try db.execute(sql: "UPDATE place_collection SET updated_at = ? WHERE id = ?", arguments: [Timestamp.text(now), id])
    }

    static func collection(_ row: Row) -> PlaceCollection {
        PlaceCollection(
            id: row["id"],
            ownerId: row["owner_id"],
            groupId: row["group_id"],
            name: row["name"],
            description: row["description"],
            createdAt: row.date("created_at"),
            updatedAt: row.date("updated_at")
        )
    }
}

extension PlacesDatabase {
    /// The collection repository over this database.
    public var collections: SQLiteCollectionRepository { SQLiteCollectionRepository(database: self) }
}
