import Foundation
import GRDB
import PlacesCore

/// Live streams' reads of the change feed, and their leases, in SQLite. One writer at a time makes the order of the
/// feed's positions the order of commits, so each row is a position of its own (`transaction` and `row` alike) and
/// everything committed is below the horizon.
public struct SQLiteLiveRepository: LiveRepository {
    let database: PlacesDatabase

    public func events(after position: FeedPosition?, limit: Int) async throws -> FeedEvents {
        try await database.read { db in
            let feed = try SQLitePlaceRepository.feedState(db)
            let horizon = FeedPosition.horizon(feed.revision + 1)
            guard let position else {
                return FeedEvents(events: [], through: horizon, generation: feed.generation, prunedBelow: feed.prunedBelow, pending: false)
            }
            let events =
                try SQLiteLiveRepository.first(after: position).map { first in
                    try Row.fetchAll(
                        db,
                        sql: """
                            SELECT position, kind, subject, detail, version FROM feed
                            WHERE position >= ? AND kind IN (\(FeedEvent.Kind.sqlList(FeedEvent.Kind.live)))
                            ORDER BY position LIMIT ?
                            """,
                        arguments: [first, limit]
                    ).compactMap(SQLiteLiveRepository.event)
                } ?? []
            let full = events.count >= limit
            return FeedEvents(
                events: events,
                through: full ? events.last?.position ?? position : max(horizon, position),
                generation: feed.generation,
                prunedBelow: feed.prunedBelow,
                pending: full
            )
        }
    }

    public func events(of topic: FeedTopic, after position: FeedPosition, before end: FeedPosition, limit: Int) async throws -> [FeedEvent] {
        // Nothing follows the last position there is (a client's id may name it: adding one would wrap to the first).
        guard let first = SQLiteLiveRepository.first(after: position) else { return [] }
        // Positions before `end`: below its transaction, or at it when the end is past the row (then the transaction
        // is below the row, so below Int64.max, and one more cannot overflow).
        let bound = end.transaction < end.row ? end.transaction + 1 : end.transaction
        return try await database.readStatement { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT position, kind, subject, detail, version FROM feed
                    WHERE subject = ? AND kind IN (\(FeedEvent.Kind.sqlList(FeedEvent.Kind.streamed))) AND position >= ? AND position < ?
                    ORDER BY position LIMIT ?
                    """,
                arguments: [topic.subject, first, bound, limit]
            ).compactMap(SQLiteLiveRepository.event).filter(topic.carries)
        }
    }

    public func openStream(id: String, userID: String, holder: String, now: Date, until expiresAt: Date, allowed: Int) async throws -> Bool {
        let (now, until) = (Timestamp.text(now), Timestamp.text(expiresAt))
        return try await database.write(ringing: false) { db in
            // Holders whose leases lapsed (their instance died) go with their streams; a stream without a holder row (of
            // a release before holder leases) counts while its own lease runs.
            try db.execute(sql: "DELETE FROM live_stream WHERE holder IN (SELECT holder FROM live_holder WHERE expires_at <= ?)", arguments: [now])
            try db.execute(sql: "DELETE FROM live_holder WHERE expires_at <= ?", arguments: [now])
            try db.execute(
                sql: """
                    DELETE FROM live_stream
                    WHERE user_id = ? AND expires_at <= ? AND NOT EXISTS (SELECT 1 FROM live_holder WHERE live_holder.holder = live_stream.holder)
                    """,
                arguments: [userID, now]
            )
            let open =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM live_stream LEFT JOIN live_holder ON live_holder.holder = live_stream.holder
                        WHERE live_stream.user_id = ? AND coalesce(live_holder.expires_at, live_stream.expires_at) > ?
                        """,
                    arguments: [userID, now]
                ) ?? 0
            guard open < allowed else { return false }
            try db.execute(
                sql: """
                    INSERT INTO live_holder (holder, expires_at) VALUES (?, ?)
                    ON CONFLICT (holder) DO UPDATE SET expires_at = excluded.expires_at WHERE live_holder.expires_at < excluded.expires_at
                    """,
                arguments: [holder, until]
            )
            try db.execute(
                sql: "INSERT INTO live_stream (id, user_id, holder, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [id, userID, holder, until]
            )
            return true
        }
    }

    public func renewStreams(holder: String, until expiresAt: Date) async throws {
        try await database.write(ringing: false) { db in
            try db.execute(
                sql: "INSERT INTO live_holder (holder, expires_at) VALUES (?, ?) ON CONFLICT (holder) DO UPDATE SET expires_at = excluded.expires_at",
                arguments: [holder, Timestamp.text(expiresAt)]
            )
        }
    }

    public func closeStream(id: String) async throws {
        try await database.write(ringing: false) { db in
            try db.execute(sql: "DELETE FROM live_stream WHERE id = ?", arguments: [id])
        }
    }

    public func closeStreams(holder: String) async throws {
        try await database.write(ringing: false) { db in
            try db.execute(sql: "DELETE FROM live_stream WHERE holder = ?", arguments: [holder])
            try db.execute(sql: "DELETE FROM live_holder WHERE holder = ?", arguments: [holder])
        }
    }

    /// The first row position after `position` (a row's position is its transaction's); nil when none can follow it.
    static func first(after position: FeedPosition) -> Int64? {
        if position.transaction > position.row { return position.transaction }
        let (next, overflow) = position.transaction.addingReportingOverflow(1)
        return overflow ? nil : next
    }

    static func event(_ row: Row) -> FeedEvent? {
        guard let kind = FeedEvent.Kind(rawValue: row["kind"]) else { return nil }
        let position: Int64 = row["position"]
        return FeedEvent(
            position: FeedPosition(transaction: position, row: position),
            kind: kind,
            subject: row["subject"],
            detail: row["detail"],
            version: row["version"]
        )
    }
}

extension PlacesDatabase {
    /// Live streams' reads of the feed and their leases, in this database.
    public var live: SQLiteLiveRepository { SQLiteLiveRepository(database: self) }
}
