import Foundation
import PlacesCore
import PostgresNIO

/// Collections and their ordered entries in PostgreSQL. Positions stay dense (0..<count); every change to the entries
/// locks the collection's row first (so changes to one collection take turns) and bumps its `updated_at` in the same
/// transaction.
public struct PostgresCollectionRepository: CollectionRepository {
    let database: PostgresPlacesDatabase

    public func insert(_ collection: PlaceCollection) async throws {
        try await database.write { connection in
            _ = try await connection.execute(
                """
                INSERT INTO place_collection (id, owner_id, group_id, name, description, created_at, updated_at)
                VALUES (\(collection.id), \(collection.ownerId), \(collection.groupId), \(collection.name), \(collection.description),
                    \(Timestamp.text(collection.createdAt)), \(Timestamp.text(collection.updatedAt)))
                """,
                logger: database.logger
            )
        }
    }

    public func collection(id: String) async throws -> PlaceCollection? {
        let row = try await database.read { connection in
            try await connection.row("SELECT * FROM place_collection WHERE id = \(id)", logger: database.logger)
        }
        return try row.map(PostgresCollectionRepository.collection)
    }

    public func collections(ownerID: String, groupIDs: [String], page: PageRequest) async throws -> Page<PlaceCollection> {
        let after = try Keyset.byName(of: "c", page: page)
        let rows = try await database.read { connection in
            try await connection.rows(
                """
                SELECT * FROM place_collection c
                WHERE (c.owner_id = \(ownerID) OR c.group_id = ANY(\(groupIDs))) AND \(after) \(orderBy: after) LIMIT \(page.fetchLimit)
                """,
                logger: database.logger
            )
        }
        return try page.page(rows) { row in
            let collection = try PostgresCollectionRepository.collection(row)
            return (collection, [collection.name, collection.name, collection.id])
        }
    }

    public func collectionCount(ownerID: String?, groupID: String?) async throws -> Int {
        if let ownerID {
            try await database.count("SELECT count(*) FROM place_collection WHERE owner_id = \(ownerID)")
        } else {
            try await database.count("SELECT count(*) FROM place_collection WHERE group_id = \(groupID)")
        }
    }

    public func update(_ collection: PlaceCollection) async throws {
        try await database.write { connection in
            _ = try await connection.execute(
                """
                UPDATE place_collection SET name = \(collection.name), description = \(collection.description),
                    updated_at = \(Timestamp.text(collection.updatedAt))
                WHERE id = \(collection.id)
                """,
                logger: database.logger
            )
        }
    }

    public func delete(id: String) async throws {
        try await database.write { connection in
            // Its entries go with it (ON DELETE CASCADE).
            _ = try await connection.execute("DELETE FROM place_collection WHERE id = \(id)", logger: database.logger)
        }
    }

    public func entries(collectionID: String) async throws -> [CollectionEntry] {
        try await database.read { connection in
            try await PostgresCollectionRepository.entries(collectionID, on: connection, database: database)
        }
    }

    public func add(placeID: String, to collectionID: String, at position: Int?, by userID: String, now: Date) async throws {
        try await database.write { connection in
            guard try await PostgresCollectionRepository.lock(collectionID, on: connection, database: database) else {
                throw PostgresCollectionRepository.noCollection(collectionID)
            }
            let present = try await connection.value(
                "SELECT EXISTS (SELECT 1 FROM collection_entry WHERE collection_id = \(collectionID) AND place_id = \(placeID))",
                as: Bool.self,
                logger: database.logger
            )
            if present == true {
                throw PlacesError(.conflict, "place \(PlacesError.quoted(placeID)) is already in this collection", field: "placeId")
            }
            let known = try await connection.value(
                "SELECT EXISTS (SELECT 1 FROM place WHERE id = \(placeID))",
                as: Bool.self,
                logger: database.logger
            )
            guard known == true else {
                throw PlacesError.unknownReference("placeId", "no place with id \(PlacesError.quoted(placeID))")
            }
            let count =
                try await connection.value(
                    "SELECT count(*) FROM collection_entry WHERE collection_id = \(collectionID)",
                    as: Int.self,
                    logger: database.logger
                ) ?? 0
            let slot = min(max(position ?? count, 0), count)
            try await connection.execute(
                "UPDATE collection_entry SET position = position + 1 WHERE collection_id = \(collectionID) AND position >= \(slot)",
                logger: database.logger
            )
            try await connection.execute(
                """
                INSERT INTO collection_entry (collection_id, place_id, position, added_by, added_at)
                VALUES (\(collectionID), \(placeID), \(slot), \(userID), \(Timestamp.text(now)))
                """,
                logger: database.logger
            )
            try await PostgresCollectionRepository.touch(collectionID, now: now, on: connection, database: database)
        }
    }

    public func remove(placeID: String, from collectionID: String, now: Date) async throws -> Bool {
        try await database.write { connection in
            guard try await PostgresCollectionRepository.lock(collectionID, on: connection, database: database) else { return false }
            let position = try await connection.value(
                "DELETE FROM collection_entry WHERE collection_id = \(collectionID) AND place_id = \(placeID) RETURNING position",
                as: Int.self,
                logger: database.logger
            )
            guard let position else { return false }
            try await connection.execute(
                "UPDATE collection_entry SET position = position - 1 WHERE collection_id = \(collectionID) AND position > \(position)",
                logger: database.logger
            )
            try await PostgresCollectionRepository.touch(collectionID, now: now, on: connection, database: database)
            return true
        }
    }

    public func reorder(collectionID: String, placeIDs: [String], now: Date) async throws {
        try await database.write { connection in
            guard try await PostgresCollectionRepository.lock(collectionID, on: connection, database: database) else {
                throw PostgresCollectionRepository.noCollection(collectionID)
            }
            let stored = try await PostgresCollectionRepository.entries(collectionID, on: connection, database: database).map(\.placeID)
            guard placeIDs.count == stored.count, Set(placeIDs) == Set(stored) else {
                throw PlacesError.invalid("placeIds", "placeIds must name each of the collection's \(stored.count) places exactly once")
            }
            try await connection.execute(
                """
                UPDATE collection_entry e SET position = n.position - 1
                FROM unnest(\(placeIDs)::text[]) WITH ORDINALITY AS n(place_id, position)
                WHERE e.collection_id = \(collectionID) AND e.place_id = n.place_id
                """,
                logger: database.logger
            )
            try await PostgresCollectionRepository.touch(collectionID, now: now, on: connection, database: database)
        }
    }

    /// Every entry of the collection, in order.
    static func entries(_ collectionID: String, on connection: PostgresConnection, database: PostgresPlacesDatabase) async throws
        -> [CollectionEntry]
    {
        try await connection.rows(
            "SELECT place_id, added_by, added_at FROM collection_entry WHERE collection_id = \(collectionID) ORDER BY position, place_id",
            logger: database.logger
        ).map { row in
            CollectionEntry(placeID: try row.get("place_id"), addedBy: try row.get("added_by"), addedAt: try row.date("added_at"))
        }
    }

    /// Locks the collection's row until the caller's transaction ends, so that changes to its entries take turns;
    /// false when there is no such collection.
    static func lock(_ id: String, on connection: PostgresConnection, database: PostgresPlacesDatabase) async throws -> Bool {
        try await connection.row("SELECT 1 FROM place_collection WHERE id = \(id) FOR NO KEY UPDATE", logger: database.logger) != nil
    }

    /// The error for a collection that does not exist.
    static func noCollection(_ id: String) -> PlacesError {
        PlacesError.notFound("no collection with id \(PlacesError.quoted(id))")
    }

    /// Sets the collection's `updated_at`, in the caller's transaction.
    static func touch(_ id: String, now: Date, on connection: PostgresConnection, database: PostgresPlacesDatabase) async throws {
        try await connection.execute(
            "UPDATE place_collection SET updated_at = \(Timestamp.text(now)) WHERE id = \(id)",
            logger: database.logger
        )
    }

    /// A collection from its row.
    static func collection(_ row: PostgresRandomAccessRow) throws -> PlaceCollection {
        PlaceCollection(
            id: try row.get("id"),
            ownerId: try row.get("owner_id"),
            groupId: try row.get("group_id"),
            name: try row.get("name"),
            description: try row.get("description"),
            createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at")
        )
    }
}

extension PostgresPlacesDatabase {
    /// The collection repository over this database.
    public var collections: PostgresCollectionRepository { PostgresCollectionRepository(database: self) }
}
