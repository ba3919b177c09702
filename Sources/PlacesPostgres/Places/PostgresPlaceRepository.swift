import Foundation
import GeoIndex
import Logging
import PlacesCore
import PostgresNIO

/// Places in PostgreSQL. Every write bumps the change counter in its own transaction and stamps the rows it touches
/// with the new value; the counter row's lock orders the writers, so readers of `changes(since:)` see changes in commit
/// order, and the commit notifies every instance listening on the feed's channel.
public struct PostgresPlaceRepository: PlaceRepository {
    let database: PostgresPlacesDatabase
    var logger: Logger { database.logger }

    public func place(id: String) async throws -> Place? {
        try await database.read { connection in
            try await connection.row("SELECT * FROM place WHERE id = \(id)", logger: logger).map(PostgresPlaceRow.place)
        }
    }

    public func liveSummaries() async throws -> PlaceSnapshot {
        // One snapshot for the counter and the rows, so the summaries are exactly those at that revision; a million
        // of them take seconds.
        try await database.snapshot(within: .own(.seconds(300))) { connection in
            let (revision, generation) = try await PostgresPlaceRepository.counter(on: connection, logger: logger)
            var summaries: [PlaceSummary] = []
            var shared = SharedValues()
            let rows = try await connection.query(
                "SELECT \(unescaped: PostgresPlaceRow.summaryColumns) FROM place WHERE deleted_at IS NULL",
                logger: logger
            )
            for try await columns in rows.decode(PostgresPlaceRow.SummaryColumns.self) {
                if let summary = PostgresPlaceRow.summary(columns, shared: &shared) { summaries.append(summary) }
            }
            return PlaceSnapshot(summaries: summaries, revision: revision, generation: generation)
        }
    }

    public func changes(since revision: Int64, limit: Int) async throws -> PlaceChanges? {
        try await database.snapshot { connection in
            let (current, generation) = try await PostgresPlaceRepository.counter(on: connection, logger: logger)
            var changes = PlaceChanges(upserted: [], deleted: [], revision: current, generation: generation)
            // A counter behind the caller's means the database was replaced: only a whole snapshot is right then.
            guard current >= revision else { return nil }
            guard current > revision else { return changes }
            let count = try await connection.value("SELECT count(*) FROM place WHERE revision > \(revision)", as: Int.self, logger: logger) ?? 0
            guard count <= limit else { return nil }
            var shared = SharedValues()
            let rows = try await connection.query(
                """
                SELECT \(unescaped: PostgresPlaceRow.summaryColumns), deleted_at IS NOT NULL FROM place
                WHERE revision > \(revision) ORDER BY revision
                """,
                logger: logger
            )
            typealias Changed = (String, String, String, Double, Double, String?, String, String?, Int?, String?, String?, Int, Int, Bool)
            for try await changed in rows.decode(Changed.self) {
                if changed.13 {
                    changes.deleted.append(changed.0)
                } else if let summary = PostgresPlaceRow.summary(
                    (changed.0, changed.1, changed.2, changed.3, changed.4, changed.5, changed.6, changed.7, changed.8, changed.9,
                     changed.10, changed.11, changed.12),
                    shared: &shared
                ) {
                    changes.upserted.append(summary)
                }
            }
            return changes
        }
    }

    public func beginSeed() async throws -> any SeedTransaction {
        PostgresSeedTransaction(database: database)
    }

    public func insert(_ place: Place) async throws {
        try await database.change { connection in
            try await connection.execute(PostgresPlaceRow.insert(place), logger: logger)
        }
    }

    public func additionTimes(ownerID: String, since: Date) async throws -> [Date] {
        try await database.read { connection in
            try await connection.rows(
                "SELECT created_at FROM place WHERE owner_id = \(ownerID) AND created_at >= \(Timestamp.text(since)) ORDER BY created_at",
                logger: logger
            ).compactMap { Timestamp.date(try $0.get("created_at")) }
        }
    }

    public func update(_ place: Place) async throws {
        try await database.change { connection in
            guard try await connection.execute(PostgresPlaceRow.replace(place), logger: logger) > 0 else {
                throw PlacesError.notFound("no place with id '\(place.id)'")
            }
        }
    }

    public func setFavorite(userID: String, placeID: String, favorite: Bool, now: Date) async throws {
        try await database.change { connection in
            if favorite {
                try await connection.execute(
                    "INSERT INTO favorite (user_id, place_id, created_at) VALUES (\(userID), \(placeID), \(Timestamp.text(now))) ON CONFLICT DO NOTHING",
                    logger: logger
                )
            } else {
                try await connection.execute("DELETE FROM favorite WHERE user_id = \(userID) AND place_id = \(placeID)", logger: logger)
            }
        }
    }

    public func favorites(userID: String) async throws -> [(placeID: String, createdAt: Date)] {
        try await database.read { connection in
            try await connection.rows(
                "SELECT place_id, created_at FROM favorite WHERE user_id = \(userID) ORDER BY created_at DESC, place_id",
                logger: logger
            ).map { row in (placeID: try row.get("place_id"), createdAt: try row.date("created_at")) }
        }
    }

    public func save(_ rating: Rating) async throws -> RatingAggregate {
        try await database.write { connection in
            // The place's row, then the counter: every writer takes them in that order (a seed holds the rows of its
            // places until it commits, and must not hold up the counter meanwhile). The counter's lock orders the
            // saves of ratings, so the recount below sees every rating committed before it (a statement that waited
            // for the lock would count from the moment it started).
            try await PostgresPlaceRepository.lockPlace(rating.placeId, on: connection, logger: logger)
            let revision = try await PostgresPlaceRepository.bumpRevision(on: connection, logger: logger)
            try await connection.execute(
                """
                INSERT INTO rating (user_id, place_id, stars, review, created_at, updated_at)
                VALUES (\(rating.userId), \(rating.placeId), \(rating.stars), \(rating.review), \(Timestamp.text(rating.createdAt)),
                    \(Timestamp.text(rating.updatedAt)))
                ON CONFLICT (user_id, place_id) DO UPDATE SET stars = excluded.stars, review = excluded.review,
                    updated_at = excluded.updated_at
                """,
                logger: logger
            )
            return try await PostgresPlaceRepository.recountRatings(of: rating.placeId, revision: revision, on: connection, logger: logger)
        }
    }

    public func deleteRating(userID: String, placeID: String) async throws -> RatingAggregate? {
        do {
            return try await deleteStoredRating(userID: userID, placeID: placeID)
        } catch is NothingToDelete {
            return nil
        }
    }

    /// Deletes the rating and answers the place's new aggregate; `NothingToDelete` when there was no rating.
    private func deleteStoredRating(userID: String, placeID: String) async throws -> RatingAggregate {
        try await database.write { connection in
            // The place's row, then the counter, as in `save`.
            try await PostgresPlaceRepository.lockPlace(placeID, on: connection, logger: logger)
            let revision = try await PostgresPlaceRepository.bumpRevision(on: connection, logger: logger)
            guard try await connection.execute("DELETE FROM rating WHERE user_id = \(userID) AND place_id = \(placeID)", logger: logger) > 0
            else {
                throw NothingToDelete()
            }
            return try await PostgresPlaceRepository.recountRatings(of: placeID, revision: revision, on: connection, logger: logger)
        }
    }

    /// Thrown inside `deleteRating`'s transaction when there was no rating, so that its revision is rolled back too.
    private struct NothingToDelete: Error {}

    /// Locks the place's row for the rest of the transaction (before the change counter, as every writer does).
    static func lockPlace(_ placeID: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.execute("SELECT 1 FROM place WHERE id = \(placeID) FOR NO KEY UPDATE", logger: logger)
    }

    /// Recomputes the rating aggregate of the place from its ratings and stamps it with `revision`.
    static func recountRatings(of placeID: String, revision: Int64, on connection: PostgresConnection, logger: Logger) async throws
        -> RatingAggregate
    {
        let row = try await connection.row(
            """
            UPDATE place SET (rating_count, rating_sum) = (
                SELECT count(*), coalesce(sum(stars), 0) FROM rating WHERE place_id = \(placeID)
            ), revision = \(revision)
            WHERE id = \(placeID)
            RETURNING rating_count, rating_sum
            """,
            logger: logger
        )
        guard let row else { return RatingAggregate(count: 0, sum: 0) }
        return RatingAggregate(count: try row.get("rating_count"), sum: try row.get("rating_sum"))
    }

    public func search(_ query: PlaceSearchQuery) async throws -> Page<PlaceSearchHit> {
        // Every word must begin a word of some field: (n.w:* | l.w:* | d.w:*) & …, which the GIN index answers; the
        // words are letters and digits only, so they need no quoting beyond the lexeme's quotes.
        let match = query.words.map { word in "('n.\(word)':* | 'l.\(word)':* | 'd.\(word)':*)" }.joined(separator: " & ")
        guard let circle = query.circle else {
            var key: [any PostgresDynamicTypeEncodable & Sendable]?
            // The relevance travels as a number's exact bits and is compared as one (any bits a cursor holds compare).
            if let after = try query.page.after(parts: 2) { key = [try PageRequest.double(after[0]), after[1]] }
            let after = Keyset([.init(sql: "relevance", descending: true), .init(sql: "id")], after: key)
            let rows = try await database.read { connection in
                try await connection.rows(
                    """
                    SELECT * FROM (
                        SELECT place.*, places_relevance(search, \(query.words)) AS relevance
                        FROM place WHERE search @@ \(match)::tsquery AND deleted_at IS NULL
                    ) AS hit
                    WHERE relevance > 0 AND \(after)
                    \(orderBy: after)
                    LIMIT \(query.page.fetchLimit)
                    """,
                    logger: logger
                )
            }
            return try query.page.page(rows) { row in
                let hit = try PostgresPlaceRepository.hit(row, distanceMeters: nil)
                return (hit, [PageRequest.keyPart(hit.details.relevance), hit.place.id])
            }
        }
        // Inside a circle: SQL keeps the matches in the circle's bounds (its latitude band, and its longitudes, one side
        // of the antimeridian or both), and Swift measures each one's distance (Geodesy, the one definition of distance,
        // bit for bit what SQLite and the index compute), keeps those inside, and pages them in order of relevance,
        // distance, id.
        let bounds = CircleBounds(center: circle.center, radiusMeters: circle.radiusMeters)
        // Always two longitude ranges, so the statement has one shape: the second repeats the first when there is one.
        let first = bounds.longitudes[0]
        let second = bounds.longitudes.count > 1 ? bounds.longitudes[1] : first
        let rows = try await database.read { connection in
            try await connection.rows(
                """
                SELECT * FROM (
                    SELECT place.*, places_relevance(search, \(query.words)) AS relevance
                    FROM place WHERE search @@ \(match)::tsquery AND deleted_at IS NULL
                        AND latitude BETWEEN \(bounds.latitude.lowerBound) AND \(bounds.latitude.upperBound)
                        AND (longitude BETWEEN \(first.lowerBound) AND \(first.upperBound)
                            OR longitude BETWEEN \(second.lowerBound) AND \(second.upperBound))
                ) AS hit
                WHERE relevance > 0
                """,
                logger: logger
            )
        }
        var hits: [PlaceSearchHit] = []
        for row in rows {
            let coordinate = Coordinate(latitude: try row.get("latitude"), longitude: try row.get("longitude"))
            let distance = Geodesy.distanceMeters(circle.center, coordinate)
            if distance <= circle.radiusMeters { hits.append(try PostgresPlaceRepository.hit(row, distanceMeters: distance)) }
        }
        func key(_ hit: PlaceSearchHit) -> (Double, Double, String) { (-hit.details.relevance, hit.place.distanceMeters ?? 0, hit.place.id) }
        hits.sort { key($0) < key($1) }
        if let after = try query.page.after(parts: 3) {
            let last = (-(try PageRequest.double(after[0])), try PageRequest.double(after[1]), after[2])
            hits.removeAll { key($0) <= last }
        }
        return query.page.page(
            hits.prefix(query.page.fetchLimit).map { hit in
                (hit, [PageRequest.keyPart(hit.details.relevance), PageRequest.keyPart(hit.place.distanceMeters ?? 0), hit.place.id])
            }
        )
    }

    /// A search hit from a row of `place.*` and its relevance.
    private static func hit(_ row: PostgresRandomAccessRow, distanceMeters: Double?) throws -> PlaceSearchHit {
        PlaceSearchHit(place: try PostgresPlaceRow.place(row), relevance: Double(try row.get("relevance", as: Int.self)), distanceMeters: distanceMeters)
    }

    public func changeCount(since revision: Int64) async throws -> Int {
        try await database.read { connection in
            try await connection.value("SELECT count(*) FROM place WHERE revision > \(revision)", as: Int.self, logger: logger) ?? 0
        }
    }

    public func liveCount() async throws -> Int {
        try await database.read { connection in
            try await connection.value("SELECT count(*) FROM place WHERE deleted_at IS NULL", as: Int.self, logger: logger) ?? 0
        }
    }

    public func isEmpty() async throws -> Bool {
        try await database.read { connection in
            try await connection.value("SELECT NOT EXISTS (SELECT 1 FROM place)", as: Bool.self, logger: logger) ?? true
        }
    }

    /// The change counter's current value and the database's generation.
    static func counter(on connection: PostgresConnection, logger: Logger) async throws -> (revision: Int64, generation: String) {
        guard let row = try await connection.row("SELECT value, generation FROM change_counter WHERE id = 1", logger: logger) else {
            throw PlacesError(.internalError, "the change counter is missing")
        }
        return (try row.get("value"), try row.get("generation"))
    }
}

extension PostgresPlacesDatabase {
    /// The place repository over this database.
    public var places: PostgresPlaceRepository { PostgresPlaceRepository(database: self) }
}
