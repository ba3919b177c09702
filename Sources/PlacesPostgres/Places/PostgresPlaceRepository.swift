import Foundation
import GeoIndex
import Logging
import PlacesCore
import PostgresNIO
import Synchronization

/// Places in PostgreSQL. Every write of a place row adds a row to the change feed in its own transaction (the feed's
/// triggers), and readers of `changes(since:)` read the feed below its horizon (`FeedHorizon`): no lock that every writer
/// takes, and no change skipped however the writers' transactions interleave.
public struct PostgresPlaceRepository: PlaceRepository {
    let database: PostgresPlacesDatabase
    var logger: Logger { database.logger }

    public func place(id: String) async throws -> Place? {
        try await database.read { connection in
            try await connection.row(PostgresPlaceRow.Lookup(id: id), logger: logger).map(PostgresPlaceRow.place)
        }
    }

    public func liveSummaries(into receiver: any PlaceSummaryReceiver) async throws -> PlaceSnapshot {
        // One snapshot for the horizon and the rows, so every change below the horizon is in the summaries; a million
        // of them take seconds.
        try await database.snapshot(within: .own(.seconds(300))) { [database] connection in
            let feed = try await FeedHorizon.read(on: connection, database: database)
            // Each row is decoded where it arrives, on the connection's event loop. (Iterated as an async sequence,
            // each row was one hop from the event loop to the task and back, which took as long as decoding it.)
            let read = SummariesRead(receiver)
            _ = try await connection.query(
                "SELECT \(unescaped: PostgresPlaceRow.summaryColumns) FROM place WHERE deleted_at IS NULL",
                logger: logger
            ) { row in try read.add(row) }.get()
            read.finish()
            return PlaceSnapshot(summaries: [], revision: feed.revision, generation: feed.generation, reach: feed.reach)
        }
    }

    public func changes(since revision: Int64, limit: Int, rereading: @escaping @Sendable () -> Set<String>) async throws -> PlaceChanges? {
        // One statement, so one snapshot for the horizon and the rows (and one round trip): the horizon, the places the
        // feed names after the index's position and below the horizon (`placeRows`) and those to re-read, each once, in
        // the order of its last change (a place with no row any more counts as deleted), how many there are, and whether changes
        // (of any kind) wait above the horizon. The horizon is compared as a scalar subquery and the waiting ones found
        // by the feed's highest id, so that both are read from the feed's index on `xid` (joined to the horizon, the
        // planner scanned the whole feed: 150 ms for a million rows, which every place write waited for).
        let rows = try await database.read { [database] connection in
            try await connection.rows(
                ChangesRead(ours: database.applicationName, revision: revision, rereading: Array(rereading()), limit: limit),
                logger: database.logger
            )
        }
        guard let first = rows.first else { throw PlacesError(.internalError, "the feed's state is missing") }
        let feed = try FeedHorizon(first)
        // A late commit (a seed) committed and no one announced it yet: announce it, and look again soon for it.
        let announced = try first.get("unannounced", as: Bool.self) ? try await database.announceLateCommits() : false
        // Ahead of every transaction the database ever started: it is another database now (a restore, a new server).
        // Behind what was pruned: changes are missing. More than the limit: cheaper whole. A whole snapshot then.
        guard revision < feed.reach + 1, revision + 1 >= feed.prunedBelow, try first.get("total", as: Int.self) <= limit else { return nil }
        let current = max(feed.revision, revision)
        var changes = PlaceChanges(upserted: [], deleted: [], revision: current, generation: feed.generation, reach: max(feed.reach, current))
        changes.pending = try first.get("pending") || announced
        var shared = SharedValues()
        for row in rows {
            guard let subject = try row.get("subject", as: String?.self) else { continue }
            if try row.get("above", as: Bool.self) { changes.rereadAbove.insert(subject) }
            guard !(try row.get("gone", as: Bool.self)), let kind = try row.get("kind", as: String?.self) else {
                changes.deleted.append(subject)
                continue
            }
            let columns = (
                subject, kind, try row.get("name", as: String.self), try row.get("latitude", as: Double.self),
                try row.get("longitude", as: Double.self), try row.get("city", as: String?.self), try row.get("tags", as: String.self),
                try row.get("cuisine", as: String?.self), try row.get("price_level", as: Int?.self), try row.get("opening_hours", as: String?.self),
                try row.get("time_zone", as: String?.self), try row.get("rating_count", as: Int.self), try row.get("rating_sum", as: Int.self),
                try row.get("description", as: String?.self), try row.get("photo_count", as: Int.self),
                try row.get("cover_photo_id", as: String?.self)
            )
            if let summary = PostgresPlaceRow.summary(columns, shared: &shared) { changes.upserted.append(summary) }
        }
        return changes
    }

    /// The feed's place changes after a position, below the horizon: each index sync runs it (see `changes(since:)`).
    ///
    /// It calls `places_changes_read`, a function that runs `query` with sequential scans turned off, so that its plan
    /// is made once per connection and kept. Planning `query` took 0.5 ms (0.9 ms under load) against 0.1 ms to run it,
    /// and every place write waits for a sync: on PostgreSQL it was an eighth of the database's CPU under the mixed
    /// load. Planned once while the feed is small, an ordinary kept plan scans the feed whole, and then a seed adds a
    /// million rows to it in one transaction: every sync would scan them all while the seed runs (writes made meanwhile
    /// reached the other instances 4.2 ms later at the median instead of 0.8), and after it until the feed is analysed
    /// again. With sequential scans off the feed is read through its index on `xid` whatever its size when planned (and
    /// with parallel workers off: a plan kept for any position started them at every read, 3 ms each, to look for a
    /// seed's announcements).
    struct ChangesRead: PreparedStatement {
        static let name = "places_changes_read"
        static let sql = """
            SELECT horizon, xmax, generation, feed_pruned_below, total, pending, unannounced, subject, last, kind, name,
                latitude, longitude, city, tags, cuisine, price_level, opening_hours, time_zone, rating_count, rating_sum,
                description, photo_count, cover_photo_id, gone, above
            FROM places_changes_read($1, $2, $3, $4)
            """
        /// What `places_changes_read` runs (its parameters: this process's name, the revision, the places to re-read, the
        /// limit). The migrations that made the function (versions 15 and 16) ran this text: a change to it needs a migration
        /// that replaces the function.
        static let query = """
            WITH \(FeedHorizon.expressions(leavingOut: "$1")),
            changed AS (
                SELECT subject, max(position) AS last FROM (
                    \(placeRows(after: "$2::text::xid8", below: "(SELECT first_open FROM horizon)"))
                    UNION ALL SELECT unnest($3::text[]), \(Int64.max), now()
                ) AS named GROUP BY subject
            )
            SELECT horizon.first_open::text::bigint AS horizon, horizon.xmax::text::bigint AS xmax, state.generation,
                state.feed_pruned_below, (SELECT count(*) FROM changed) AS total,
                coalesce((SELECT max(xid) FROM feed) >= (SELECT first_open FROM horizon), false) AS pending,
                EXISTS (SELECT 1 FROM feed_late_commit) AS unannounced,
                listed.*
            FROM horizon CROSS JOIN change_counter AS state
            LEFT JOIN LATERAL (
                SELECT changed.subject, changed.last, place.kind, place.name, place.latitude, place.longitude, place.city,
                    place.tags, place.cuisine, place.price_level, place.opening_hours, place.time_zone, place.rating_count,
                    place.rating_sum, place.description, place.photo_count, place.cover_photo_id,
                    place.id IS NULL OR place.deleted_at IS NOT NULL AS gone,
                    -- A place re-read whose changes lie at or above the horizon still (read from the feed's index on xid).
                    changed.last = \(Int64.max) AND EXISTS (
                        SELECT 1 FROM feed WHERE xid >= (SELECT first_open FROM horizon) AND kind = 'place' AND subject = changed.subject
                    ) AS above
                FROM changed LEFT JOIN place ON place.id = changed.subject
                ORDER BY changed.last, changed.subject
                LIMIT $4
            ) AS listed ON true
            WHERE state.id = 1
            ORDER BY listed.last, listed.subject
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .int8, .textArray, .int8]
        /// This process's name (`PostgresPlacesDatabase.applicationName`).
        let ours: String
        let revision: Int64
        /// Places to read whatever the feed says.
        let rereading: [String]
        /// Changes beyond which the index loads whole instead.
        let limit: Int

        var values: [(any PostgresThrowingDynamicTypeEncodable & Sendable)?] { [ours, revision, rereading, limit + 1] }
    }

    /// SQL that selects `subject, position, created_at` of the feed's place rows after `revision` and below `below` (SQL
    /// expressions of type `xid8`; nil: no bound). A late commit's rows (a seed's, see the `late-commits` migration)
    /// come through its announcement, at the announcement's position, and never on their own, even when they lie
    /// after `revision`: every reader then reads them once and in commit order, whether or not it read past the
    /// seed's transaction while it was open. A late commit's rows are found from its announcement, one lookup of the
    /// feed's index each (`OFFSET 0` keeps the planner from joining them: all of a seed's rows share one id, so it
    /// expected a million rows per announcement and scanned the whole feed in parallel at every read, announcement or
    /// none). `places_changes_read` (migrations 15 and 16) was made with this text: a change to it needs a migration that
    /// replaces that function.
    static func placeRows(after revision: String, below: String?) -> String {
        func range(_ column: String) -> String { "\(column) > \(revision)" + (below.map { " AND \(column) < \($0)" } ?? "") }
        return """
            SELECT subject, position, created_at FROM feed
            WHERE kind = 'place' AND \(range("xid"))
                AND xid NOT IN (SELECT xid FROM feed_late_commit)
                AND xid NOT IN (SELECT subject::xid8 FROM feed WHERE kind = 'late' AND xid > \(revision))
            UNION ALL
            SELECT named.subject, late.position, late.created_at FROM feed AS late
            CROSS JOIN LATERAL (SELECT subject FROM feed WHERE xid = late.subject::xid8 AND kind = 'place' OFFSET 0) AS named
            WHERE late.kind = 'late' AND \(range("late.xid"))
            """
    }

    public func beginSeed() async throws -> any SeedTransaction {
        PostgresSeedTransaction(database: database)
    }

    public func insert(_ place: Place, limit: AdditionLimit?) async throws -> Bool {
        try await database.change { connection in
            try await connection.row(PostgresPlaceRow.Insert(place: place, limit: limit), logger: logger) != nil
        }
    }

    public func additionBlocking(ownerID: String, since: Date, allowed: Int) async throws -> Date? {
        try await database.read { connection in
            try await connection.value(
                """
                SELECT created_at FROM place WHERE owner_id = \(ownerID) AND created_at >= \(Timestamp.text(since))
                ORDER BY created_at DESC LIMIT 1 OFFSET \(max(allowed - 1, 0))
                """,
                as: String.self,
                logger: logger
            ).flatMap(Timestamp.date)
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
        try await saveRating(userID: rating.userId, placeID: rating.placeId, rating: rating)
            ?? RatingAggregate(count: 0, sum: 0)
    }

    public func deleteRating(userID: String, placeID: String) async throws -> RatingAggregate? {
        try await saveRating(userID: userID, placeID: placeID, rating: nil)
    }

    /// Saves the rating, or removes the user's rating of the place when `rating` is nil, and recounts the place's
    /// ratings, in one statement (`places_save_rating`): the rater's account, then the place's row, are locked first, as
    /// account deletion takes them. Nil when there was no rating to remove; `not_found` for a new rating of a place that
    /// is not live.
    private func saveRating(userID: String, placeID: String, rating: Rating?) async throws -> RatingAggregate? {
        let row = try await database.change { [logger] connection in
            try await connection.row(RatingSave(userID: userID, placeID: placeID, rating: rating), logger: logger)
        }
        if let row, rating != nil, !(try row.get("live", as: Bool.self)) { throw PlacesError.notFound("no place with id '\(placeID)'") }
        guard let row, try row.get("changed", as: Bool.self) else { return nil }
        return RatingAggregate(
            count: try row.get("rating_count", as: Int?.self) ?? 0,
            sum: try row.get("rating_sum", as: Int?.self) ?? 0
        )
    }

    /// `places_save_rating`: every rating, and every rating removed, runs it.
    struct RatingSave: PreparedStatement {
        static let name = "places_rating_save"
        static let sql = "SELECT rating_count, rating_sum, changed, live FROM places_save_rating($1, $2, $3::integer, $4, $5, $6, $7)"
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .int8, .text, .text, .text, .bool]
        let userID: String
        let placeID: String
        /// Nil to remove the user's rating.
        let rating: Rating?

        var values: [(any PostgresThrowingDynamicTypeEncodable & Sendable)?] {
            [
                userID, placeID, rating?.stars, rating?.review, rating.map { Timestamp.text($0.createdAt) },
                rating.map { Timestamp.text($0.updatedAt) }, rating == nil,
            ]
        }
    }

    /// Locks the places' rows for the rest of the transaction, in the order of their ids (every writer that locks
    /// several takes them in that order).
    static func lockPlaces(_ placeIDs: [String], on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.execute(
            "SELECT 1 FROM place WHERE id = ANY(\(placeIDs)::text[]) ORDER BY id FOR NO KEY UPDATE",
            logger: logger
        )
    }

    /// Recomputes the rating aggregate of the place from its ratings (the caller holds the place's row).
    static func recountRatings(of placeID: String, on connection: PostgresConnection, logger: Logger) async throws -> RatingAggregate {
        let row = try await connection.row(
            "SELECT rating_count, rating_sum FROM places_recount_ratings(\(placeID))",
            logger: logger
        )
        guard let row else { return RatingAggregate(count: 0, sum: 0) }
        return RatingAggregate(count: try row.get("rating_count", as: Int?.self) ?? 0, sum: try row.get("rating_sum", as: Int?.self) ?? 0)
    }

    public func unapplied(since revision: Int64, leavingOut applied: Set<String>) async throws -> UnappliedChanges {
        try await database.read { connection in
            let row = try await connection.row(
                """
                SELECT count(DISTINCT subject) AS changes,
                    coalesce(extract(epoch FROM clock_timestamp() - min(created_at)), 0)::float8 AS oldest
                FROM (\(unescaped: Self.placeRows(after: "'\(revision)'::xid8", below: nil))) AS named
                WHERE NOT (subject = ANY(\(Array(applied))))
                """,
                logger: logger
            )
            return UnappliedChanges(changes: try row?.get("changes", as: Int.self) ?? 0, oldestSeconds: try row?.get("oldest", as: Double.self) ?? 0)
        }
    }

    public func liveCount() async throws -> Int {
        try await database.count("SELECT count(*) FROM place WHERE deleted_at IS NULL")
    }

    public func isEmpty() async throws -> Bool {
        try await database.read { connection in
            try await connection.value("SELECT NOT EXISTS (SELECT 1 FROM place)", as: Bool.self, logger: logger) ?? true
        }
    }

}

extension PostgresPlacesDatabase {
    /// The place repository over this database.
    public var places: PostgresPlaceRepository { PostgresPlaceRepository(database: self) }
}

/// The summaries of a whole read, decoded a row at a time as the rows arrive and handed on in batches.
private final class SummariesRead: Sendable {
    private struct State {
        var batch: [PlaceSummary] = []
        var shared = SharedValues()
    }

    private let receiver: any PlaceSummaryReceiver
    private let state = Mutex(State())

    init(_ receiver: any PlaceSummaryReceiver) {
        self.receiver = receiver
    }

    func add(_ row: PostgresRow) throws {
        let columns = try PostgresPlaceRow.summaryColumns(row)
        let full: [PlaceSummary]? = state.withLock { state in
            guard let summary = PostgresPlaceRow.summary(columns, shared: &state.shared) else { return nil }
            state.batch.append(summary)
            guard state.batch.count == PlaceSnapshot.batchSize else { return nil }
            defer { state.batch = [] }
            return state.batch
        }
        if let full { receiver.receive(full) }
    }

    /// Hands on the last batch.
    func finish() {
        receiver.receive(state.withLock { state in
            defer { state.batch = [] }
            return state.batch
        })
    }
}
