import Foundation
import Logging
import PlacesCore
import PostgresNIO

/// The change feed's own operations in PostgreSQL: the horizon's age (read from `pg_stat_activity`, see
/// `FeedHorizon`) and pruning.
public struct PostgresFeedRepository: ChangeFeedRepository {
    let database: PostgresPlacesDatabase
    var logger: Logger { database.logger }

    public var commits: Doorbells { database.commits }

    public func feedHorizonAge() async throws -> Double {
        try await database.read { [database] connection in
            try await connection.value(
                """
                SELECT coalesce(extract(epoch FROM clock_timestamp() - min(xact_start)), 0)::float8 FROM pg_stat_activity
                WHERE backend_xid IS NOT NULL AND \(unescaped: FeedHorizon.holdsFeed(FeedHorizon.literal(database.applicationName)))
                """,
                as: Double.self,
                logger: logger
            ) ?? 0
        }
    }

    public func pruneFeed(writtenBefore date: Date) async throws -> Int {
        try await database.write(within: .own(.seconds(60))) { connection in
            // Rows of one transaction share its start time, so a transaction's rows go together; what was read past
            // them (below the highest position pruned) needs them no more. The old rows are the feed's first, so they
            // are found from its first row young enough to stay, through the index on `xid`: the rows before it are
            // old, and none is read after it (`created_at < date` alone read the whole feed at every pruning: 146 ms
            // for a million rows with nothing to prune). An old row that follows a young one (a transaction that
            // took its id late) goes at a later pruning.
            try await connection.value(
                """
                WITH first_kept AS (SELECT xid FROM feed WHERE created_at >= \(date) ORDER BY xid LIMIT 1),
                gone AS (
                    DELETE FROM feed WHERE xid < coalesce((SELECT xid FROM first_kept), '18446744073709551615'::xid8)
                    RETURNING xid::text::bigint AS position
                ),
                moved AS (
                    UPDATE change_counter SET feed_pruned_below = greatest(feed_pruned_below, (SELECT max(position) + 1 FROM gone))
                    WHERE id = 1 AND EXISTS (SELECT 1 FROM gone)
                )
                SELECT count(*) FROM gone
                """,
                as: Int.self,
                logger: logger
            ) ?? 0
        }
    }
}

extension PostgresPlacesDatabase {
    /// The change feed of this database.
    public var feed: PostgresFeedRepository { PostgresFeedRepository(database: self) }
}
