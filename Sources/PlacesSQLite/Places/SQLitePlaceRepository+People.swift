import Foundation
import GRDB
import GeoIndex
import PlacesCore

/// Places written through the API and the CLI, favourites and ratings.
extension SQLitePlaceRepository {
    public func additionBlocking(ownerID: String, since: Date, allowed: Int) async throws -> Date? {
        try await database.read { db in
            try String.fetchOne(
                db,
                sql: "SELECT created_at FROM place WHERE owner_id = ? AND created_at >= ? ORDER BY created_at DESC LIMIT 1 OFFSET ?",
                arguments: [ownerID, Timestamp.text(since), max(allowed - 1, 0)]
            ).flatMap(Timestamp.date)
        }
    }

    public func insert(_ place: Place, limit: AdditionLimit?) async throws -> Bool {
        try await database.write { db in
            if let limit, let owner = place.ownerID {
                let reached = try db.exists(
                    "SELECT 1 FROM place WHERE owner_id = ? AND created_at >= ? LIMIT 1 OFFSET ?",
                    arguments: [owner, Timestamp.text(limit.since), max(limit.allowed - 1, 0)]
                )
                if reached { return false }
            }
            let revision = try SQLitePlaceRepository.writerStamp(db)
            var binding = try PlaceBinding(db: db, sql: PlaceRow.insertSQL)
            _ = try binding.execute(place, revision: revision, in: db)
            return true
        }
    }

    public func update(_ place: Place) async throws {
        try await database.write { db in
            guard try db.exists("SELECT 1 FROM place WHERE id = ?", arguments: [place.id]) else {
                throw PlacesError.notFound("no place with id '\(place.id)'")
            }
            let revision = try SQLitePlaceRepository.writerStamp(db)
            var binding = try PlaceBinding(db: db, sql: PlaceRow.replaceSQL)
            _ = try binding.execute(place, revision: revision, in: db)
        }
    }

    public func setFavorite(userID: String, placeID: String, favorite: Bool, now: Date) async throws {
        try await database.write { db in
            if favorite {
                try db.execute(
                    sql: "INSERT INTO favorite (user_id, place_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    arguments: [userID, placeID, Timestamp.text(now)]
                )
            } else {
                try db.execute(sql: "DELETE FROM favorite WHERE user_id = ? AND place_id = ?", arguments: [userID, placeID])
            }
        }
    }

    public func favorites(userID: String) async throws -> [(placeID: String, createdAt: Date)] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT place_id, created_at FROM favorite WHERE user_id = ? ORDER BY created_at DESC, place_id",
                arguments: [userID]
            ).map { row in (placeID: row[0], createdAt: row.date(1)) }
        }
    }

    public func save(_ rating: Rating) async throws -> RatingAggregate {
        try await database.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM place WHERE id = ? AND deleted_at IS NULL", arguments: [rating.placeId]) != nil else {
                throw PlacesError.notFound("no place with id '\(rating.placeId)'")
            }
            try db.execute(
                sql: """
                    INSERT INTO rating (user_id, place_id, stars, review, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (user_id, place_id) DO UPDATE SET stars = excluded.stars, review = excluded.review,
                        updated_at = excluded.updated_at
                    """,
                arguments: [
                    rating.userId, rating.placeId, rating.stars, rating.review, Timestamp.text(rating.createdAt),
                    Timestamp.text(rating.updatedAt),
                ]
            )
            let revision = try SQLitePlaceRepository.writerStamp(db)
            return try SQLitePlaceRepository.recountRatings(of: [rating.placeId], revision: revision, in: db)[0]
        }
    }

    public func deleteRating(userID: String, placeID: String) async throws -> RatingAggregate? {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM rating WHERE user_id = ? AND place_id = ?", arguments: [userID, placeID])
            guard db.changesCount > 0 else { return nil }
            let revision = try SQLitePlaceRepository.writerStamp(db)
            return try SQLitePlaceRepository.recountRatings(of: [placeID], revision: revision, in: db)[0]
        }
    }

    /// Recomputes the rating aggregate of these places from their ratings and stamps them with `revision`.
    static func recountRatings(of placeIDs: [String], revision: Int64, in db: Database) throws -> [RatingAggregate] {
        try placeIDs.map { placeID in
            let row = try Row.fetchOne(
                db,
                sql: "SELECT COUNT(*), COALESCE(SUM(stars), 0) FROM rating WHERE place_id = ?",
                arguments: [placeID]
            )
            let aggregate = RatingAggregate(count: row?[0] ?? 0, sum: row?[1] ?? 0)
            try db.execute(
                sql: "UPDATE place SET rating_count = ?, rating_sum = ?, revision = ? WHERE id = ?",
                arguments: [aggregate.count, aggregate.sum, revision, placeID]
            )
            return aggregate
        }
    }

}
