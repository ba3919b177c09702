import Foundation
import PlacesCore
import PostgresNIO

/// Live streams' reads of the change feed, and their leases, in PostgreSQL.
///
/// The feed is read below its horizon (`FeedHorizon`), in the order of (transaction, row): every transaction below the
/// horizon has ended, so what a read sees there is all there will ever be, and reads one after another give the
/// events in that order with no gap and no repeat, whichever instance reads.
public struct PostgresLiveRepository: LiveRepository {
    let database: PostgresPlacesDatabase

    public func events(after position: FeedPosition?, limit: Int) async throws -> FeedEvents {
        // Before every position when starting: the read then finds the horizon only.
        let from = position ?? FeedPosition.horizon(Int64.max)
        let rows = try await database.read(within: .own(.seconds(10))) { [database] connection in
            try await connection.rows(
                EventsRead(ours: database.applicationName, after: from, limit: position == nil ? 0 : limit),
                logger: database.logger
            )
        }
        guard let first = rows.first else { throw PlacesError(.internalError, "the feed's state is missing") }
        let horizon = FeedPosition.horizon(try first.get("horizon", as: Int64.self))
        var events: [FeedEvent] = []
        for row in rows {
            if let event = try PostgresLiveRepository.event(row) { events.append(event) }
        }
        let full = position != nil && events.count >= limit
        let through: FeedPosition =
            if position == nil { horizon } else if full, let last = events.last { last.position } else { max(horizon, from) }
        let waiting = try first.get("waiting", as: Bool.self)
        return FeedEvents(
            events: events,
            through: through,
            generation: try first.get("generation"),
            prunedBelow: try first.get("feed_pruned_below"),
            pending: full || waiting
        )
    }

    public func events(of topic: FeedTopic, after position: FeedPosition, before end: FeedPosition, limit: Int) async throws -> [FeedEvent] {
        let rows = try await database.read(within: .own(.seconds(10))) { [database] connection in
            try await connection.rows(
                """
                SELECT xid::text::bigint AS xid, position, kind, subject, detail, version FROM feed
                WHERE kind IN (\(unescaped: FeedEvent.Kind.sqlList(FeedEvent.Kind.streamed))) AND subject = \(topic.subject)
                    AND xid >= \(String(position.transaction))::xid8 AND (xid > \(String(position.transaction))::xid8 OR position > \(position.row))
                    AND xid <= \(String(end.transaction))::xid8 AND (xid < \(String(end.transaction))::xid8 OR position < \(end.row))
                ORDER BY xid, position
                LIMIT \(limit)
                """,
                logger: database.logger
            )
        }
        return try rows.compactMap(PostgresLiveRepository.event).filter(topic.carries)
    }

    public func openStream(id: String, userID: String, holder: String, now: Date, until expiresAt: Date, allowed: Int) async throws -> Bool {
        try await database.quietChange { [database] connection in
            try await connection.value(
                """
                SELECT places_open_live_stream(\(id), \(userID), \(holder), \(Timestamp.text(now)), \(Timestamp.text(expiresAt)), \(Int32(clamping: allowed)))
                """,
                as: Bool.self,
                logger: database.logger
            ) ?? false
        }
    }

    public func renewStreams(holder: String, until expiresAt: Date) async throws {
        try await database.quietChange(within: .own(.seconds(5))) { [database] connection in
            try await connection.execute(
                """
                INSERT INTO live_holder (holder, expires_at) VALUES (\(holder), \(Timestamp.text(expiresAt)))
                ON CONFLICT (holder) DO UPDATE SET expires_at = excluded.expires_at
                """,
                logger: database.logger
            )
        }
    }

    public func closeStream(id: String) async throws {
        try await database.quietChange(within: .own(.seconds(5))) { [database] connection in
            try await connection.execute("DELETE FROM live_stream WHERE id = \(id)", logger: database.logger)
        }
    }

    public func closeStreams(holder: String) async throws {
        try await database.quietChange(within: .own(.seconds(5))) { [database] connection in
            try await connection.execute(
                """
                WITH closed AS (DELETE FROM live_stream WHERE holder = \(holder))
                DELETE FROM live_holder WHERE holder = \(holder)
                """,
                logger: database.logger
            )
        }
    }

    /// The event of a row with `xid`, `position`, `kind`, `subject`, `detail` and `version`; nil for a row without one
    /// (the state's row of a read that found none) or of a kind streams do not know.
    static func event(_ row: PostgresRandomAccessRow) throws -> FeedEvent? {
        guard let transaction = try row.get("xid", as: Int64?.self), let kind = FeedEvent.Kind(rawValue: try row.get("kind", as: String.self)) else {
            return nil
        }
        return FeedEvent(
            position: FeedPosition(transaction: transaction, row: try row.get("position")),
            kind: kind,
            subject: try row.get("subject"),
            detail: try row.get("detail"),
            version: try row.get("version")
        )
    }

    /// The feed's events after a position and below the horizon, with the horizon, the database's generation, where
    /// pruning stands, and whether rows wait above the horizon. It calls `places_live_events_read`, which runs `query`
    /// with a plan kept per connection that reads the feed through its index, like the index's read of the feed
    /// (`PostgresPlaceRepository.ChangesRead`): a seed can add a million rows to the feed at once.
    struct EventsRead: PreparedStatement {
        static let name = "places_live_events_read"
        static let sql = """
            SELECT horizon, generation, feed_pruned_below, waiting, xid, position, kind, subject, detail, version
            FROM places_live_events_read($1, $2, $3, $4)
            """
        /// What `places_live_events_read` runs (its parameters: this process's name, the position's transaction as text
        /// and its row, the limit). The migrations that made the function (versions 15 and 16) ran this text: a change to it
        /// needs a migration that replaces the function.
        static let query = """
            WITH \(FeedHorizon.expressions(leavingOut: "$1"))
            SELECT horizon.first_open::text::bigint AS horizon, state.generation, state.feed_pruned_below,
                coalesce((SELECT max(xid) FROM feed) >= (SELECT first_open FROM horizon), false) AS waiting,
                listed.*
            FROM horizon CROSS JOIN change_counter AS state
            LEFT JOIN LATERAL (
                SELECT xid::text::bigint AS xid, position, kind, subject, detail, version FROM feed
                WHERE kind IN (\(FeedEvent.Kind.sqlList(FeedEvent.Kind.live)))
                    AND xid >= $2::text::xid8 AND (xid > $2::text::xid8 OR position > $3)
                    AND xid < (SELECT first_open FROM horizon)
                ORDER BY xid, position
                LIMIT $4
            ) AS listed ON true
            WHERE state.id = 1
            ORDER BY listed.xid, listed.position
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .int8, .int8]
        /// This process's name (`PostgresPlacesDatabase.applicationName`).
        let ours: String
        let after: FeedPosition
        let limit: Int

        var values: [(any PostgresThrowingDynamicTypeEncodable & Sendable)?] { [ours, String(after.transaction), after.row, limit] }
    }
}

extension PostgresPlacesDatabase {
    /// Live streams' reads of the feed and their leases, in this database.
    public var live: PostgresLiveRepository { PostgresLiveRepository(database: self) }
}
