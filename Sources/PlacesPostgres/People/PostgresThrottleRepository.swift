import Foundation
import PlacesCore
import PostgresNIO

/// The login throttle's attempts in PostgreSQL, shared by every instance. A count is one transaction that first takes
/// an advisory transaction lock on each of its keys (by a hash of the key, in one order, so two counts never wait on
/// each other crosswise), then checks the windows and inserts in one statement: counts under one key run one after
/// another, from whichever instance, and each sees what the one before it committed.
public struct PostgresThrottleRepository: ThrottleRepository {
    let database: PostgresPlacesDatabase

    /// How many expired attempts one count deletes at most (skipping rows another count is deleting).
    static let sweepBatch = 100

    public func count(_ attempt: String, at now: Date, under limits: [ThrottleLimit]) async throws -> ThrottleVerdict {
        let locks = Set(limits.map { PostgresThrottleRepository.lockID($0.key) }).sorted()
        return try await database.write { connection in
            // The locks in one statement, in the sorted order (unnest keeps the array's order, and the sort changes none).
            try await connection.execute(
                "SELECT pg_advisory_xact_lock(id) FROM unnest(\(locks)::bigint[]) AS lock (id) ORDER BY id",
                logger: database.logger
            )
            // Taken after the locks, this statement's snapshot holds every attempt counted under the keys before.
            let openings = try await connection.rows(countQuery(attempt, at: now, under: limits), logger: database.logger)
                .compactMap { row -> Date? in
                    let blocking = try row.get("blocking", as: String?.self).flatMap(Timestamp.date)
                    return try blocking?.addingTimeInterval(row.get("window_seconds", as: Double.self))
                }
            return openings.max().map { .refused(until: $0) } ?? .counted
        }
    }

    /// One statement that deletes a batch of expired attempts (skipping rows another count is deleting, so counts
    /// under different keys never wait on each other), finds for each limit the newest `bound`-th attempt in its
    /// window (the one that keeps it reached; it answers that attempt's time and the window), and, when no limit is
    /// reached, counts the attempt under every key. Its parts share one snapshot: the check sees what was there before.
    private func countQuery(_ attempt: String, at now: Date, under limits: [ThrottleLimit]) -> PostgresQuery {
        let keys = limits.map(\.key)
        let bounds = limits.map { max($0.bound, 1) - 1 }
        let windowStarts = limits.map { Timestamp.text(now.addingTimeInterval(-$0.window)) }
        let windows = limits.map(\.window)
        let expiries = limits.map { Timestamp.text(now.addingTimeInterval($0.window)) }
        return """
            WITH swept AS (
                DELETE FROM throttle_attempt WHERE (attempt_id, key) IN (
                    SELECT attempt_id, key FROM throttle_attempt WHERE expires_at <= \(Timestamp.text(now))
                    ORDER BY expires_at LIMIT \(PostgresThrottleRepository.sweepBatch) FOR UPDATE SKIP LOCKED)
            ),
            limits AS (
                SELECT * FROM unnest(\(keys)::text[], \(bounds)::int[], \(windowStarts)::text[], \(windows)::float8[], \(expiries)::text[])
                    AS limits (key, skipped, window_start, window_seconds, expires_at)
            ),
            reached AS (
                SELECT limits.key, (
                    SELECT counted_at FROM throttle_attempt
                    WHERE throttle_attempt.key = limits.key AND counted_at > limits.window_start
                    ORDER BY counted_at DESC LIMIT 1 OFFSET limits.skipped
                ) AS counted_at, limits.window_seconds
                FROM limits
            ),
            counted AS (
                INSERT INTO throttle_attempt (attempt_id, key, counted_at, expires_at)
                SELECT \(attempt), key, \(Timestamp.text(now)), expires_at FROM limits
                WHERE NOT EXISTS (SELECT 1 FROM reached WHERE counted_at IS NOT NULL)
            )
            SELECT counted_at AS blocking, window_seconds FROM reached
            """
    }

    public func withdraw(_ attempt: String, clearing keys: [String]) async throws {
        try await database.write { connection in
            _ = try await connection.execute(
                "DELETE FROM throttle_attempt WHERE attempt_id = \(attempt) OR key = ANY(\(keys))",
                logger: database.logger
            )
        }
    }

    /// The advisory lock of a key: a 64-bit FNV-1a hash of it (stable across instances and releases), in a space of
    /// its own. Two keys that share a hash only wait on each other, which changes no count.
    static func lockID(_ key: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in ("throttle\u{1F}" + key).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return Int64(bitPattern: hash)
    }
}

extension PostgresPlacesDatabase {
    /// The login throttle's attempts in this database.
    public var throttle: PostgresThrottleRepository { PostgresThrottleRepository(database: self) }
}
