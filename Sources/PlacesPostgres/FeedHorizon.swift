import Logging
import PlacesCore
import PostgresNIO

/// Where the change feed stands in a snapshot of PostgreSQL.
///
/// A feed row carries the id of the transaction that wrote it, taken before that transaction commits: a transaction
/// that started first can commit last, so a reader that remembered "the highest id I saw" would skip it for good.
/// Below the horizon nothing can commit any more: every transaction there has ended, so the rows a snapshot sees there
/// are all the rows there will ever be. A reader reads up to the horizon, remembers it, and next time reads on from
/// it. Positions are transaction ids (`xid8`, never reused), so they stay whole numbers that only grow.
///
/// The horizon is the oldest transaction still running in this database, leaving out those of other databases of the
/// server and those of another Places schema (tests give each case a schema of its own), which cannot write this
/// feed: one that is not known to be elsewhere counts. A seed's transaction does not count either: it is announced
/// after it commits (`PostgresPlacesDatabase.announceLateCommits`), so that it never holds the feed back for the
/// twenty seconds a million rows take. It works on the primary only (`pg_current_snapshot()` on a
/// standby sees no transaction ids of its own).
struct FeedHorizon: Sendable {
    /// The first position not yet safe to read: every transaction below it has ended.
    var horizon: Int64
    /// The first position no transaction has taken yet (the snapshot's `xmax`): every transaction that committed
    /// before the snapshot is below it.
    var xmax: Int64
    /// The database's generation (see `PlaceSnapshot.generation`).
    var generation: String
    /// Rows below this position were pruned.
    var prunedBelow: Int64

    /// Every change at or below this is in what the snapshot shows.
    var revision: Int64 { horizon - 1 }
    /// A change committed before the snapshot is at or below this.
    var reach: Int64 { xmax - 1 }

    /// Reads the horizon: the first statement of a REPEATABLE READ transaction, so the snapshot is the transaction's.
    static func read(on connection: PostgresConnection, database: PostgresPlacesDatabase) async throws -> FeedHorizon {
        let row = try await connection.row(
            PostgresQuery(
                unsafeSQL: """
                    WITH \(expressions(leavingOut: literal(database.applicationName)))
                    SELECT horizon.first_open::text::bigint AS horizon, horizon.xmax::text::bigint AS xmax, generation, feed_pruned_below
                    FROM horizon CROSS JOIN change_counter WHERE id = 1
                    """
            ),
            logger: database.logger
        )
        guard let row else { throw PlacesError(.internalError, "the feed's state is missing") }
        return try FeedHorizon(row)
    }

    /// Common table expressions ending in `horizon (first_open, xmax)`, both `xid8`, of the statement's snapshot; the
    /// transactions of connections named `places/…` other than `ours` (an SQL expression of type text: `literal(_:)`
    /// of this process's name, or a parameter) are left out. The feed's readers' functions (migrations 15 and 16) were
    /// made with this text: a change to it needs a migration that replaces them.
    static func expressions(leavingOut ours: String) -> String {
        """
        taken AS (SELECT pg_current_snapshot() AS snapshot),
        elsewhere AS (
            SELECT backend_xid FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND NOT coalesce(\(holdsFeed(ours)), true)
        ),
        horizon AS (
            SELECT
                coalesce(
                    (SELECT min(running) FROM taken, pg_snapshot_xip(taken.snapshot) AS running
                     WHERE xid(running) NOT IN (SELECT backend_xid FROM elsewhere)),
                    (SELECT pg_snapshot_xmax(snapshot) FROM taken)
                ) AS first_open,
                (SELECT pg_snapshot_xmax(snapshot) FROM taken) AS xmax
        )
        """
    }

    /// An SQL condition on a row of `pg_stat_activity`: true when that backend's transaction can write this feed and is
    /// not announced after it commits, so it holds the horizon back: it is in this database, not a connection of another
    /// Places schema (named `places/…` other than `ours`, an SQL expression of type text), not a late commit
    /// (`lateCommitName`, a seed, which announces itself once committed) and not autovacuum (whose ANALYZE takes a
    /// transaction id to write its statistics, and writes no row a trigger sees). The feed's readers' functions
    /// (migration 16) were made with this text: a change to it needs a migration that replaces them.
    static func holdsFeed(_ ours: String) -> String {
        """
        (datid = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND NOT (application_name LIKE 'places/%' AND application_name <> \(ours))
            AND application_name <> '\(PostgresPlacesDatabase.lateCommitName)'
            AND backend_type <> 'autovacuum worker')
        """
    }

    /// A name this process makes (its `application_name`) as an SQL literal.
    static func literal(_ name: String) -> String {
        "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
    }
}

extension FeedHorizon {
    /// The horizon from a row with `horizon`, `xmax`, `generation` and `feed_pruned_below`.
    init(_ row: PostgresRandomAccessRow) throws {
        self.init(
            horizon: try row.get("horizon"),
            xmax: try row.get("xmax"),
            generation: try row.get("generation"),
            prunedBelow: try row.get("feed_pruned_below")
        )
    }
}
