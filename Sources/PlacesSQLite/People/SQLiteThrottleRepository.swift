import Foundation
import GRDB
import PlacesCore

/// The login throttle's attempts in SQLite. A count is one write transaction, and SQLite runs one writer at a time, so
/// the check and the count of parallel attempts never interleave.
public struct SQLiteThrottleRepository: ThrottleRepository {
    let database: PlacesDatabase

    /// How many expired attempts one count deletes at most, so a count stays quick after a long quiet spell.
    static let sweepBatch = 100

    public func count(_ attempt: String, at now: Date, under limits: [ThrottleLimit]) async throws -> ThrottleVerdict {
        try await database.write { db in
            try SQLiteThrottleRepository.sweep(at: now, in: db)
            var until: Date?
            for limit in limits {
                guard let opens = try SQLiteThrottleRepository.opening(of: limit, at: now, in: db) else { continue }
                until = max(until ?? opens, opens)
            }
            if let until { return .refused(until: until) }
            for limit in limits {
                try db.execute(
                    sql: "INSERT INTO throttle_attempt (attempt_id, key, counted_at, expires_at) VALUES (?, ?, ?, ?)",
                    arguments: [attempt, limit.key, Timestamp.text(now), Timestamp.text(now.addingTimeInterval(limit.window))]
                )
            }
            return .counted
        }
    }

    /// When `limit` lets attempts in again, if it is reached at `now`: the newest `bound`-th attempt under its key
    /// that is still in the window leaves it then.
    static func opening(of limit: ThrottleLimit, at now: Date, in db: Database) throws -> Date? {
        let blocking = try String.fetchOne(
            db,
            sql: "SELECT counted_at FROM throttle_attempt WHERE key = ? AND counted_at > ? ORDER BY counted_at DESC LIMIT 1 OFFSET ?",
            arguments: [limit.key, Timestamp.text(now.addingTimeInterval(-limit.window)), max(limit.bound, 1) - 1]
        )
        return blocking.flatMap(Timestamp.date).map { $0.addingTimeInterval(limit.window) }
    }

    /// Deletes a batch of attempts that have left their window, oldest first.
    static func sweep(at now: Date, in db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM throttle_attempt WHERE rowid IN (
                    SELECT rowid FROM throttle_attempt WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)
                """,
            arguments: [Timestamp.text(now), sweepBatch]
        )
    }

    public func withdraw(_ attempt: String, clearing keys: [String]) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM throttle_attempt WHERE attempt_id = ?", arguments: [attempt])
            guard !keys.isEmpty else { return }
            try db.execute(
                sql: "DELETE FROM throttle_attempt WHERE key IN (SELECT value FROM json_each(?))",
                arguments: [SQLiteAccountRepository.jsonArray(keys)]
            )
        }
    }
}

extension PlacesDatabase {
    /// The login throttle's attempts in this database.
    public var throttle: SQLiteThrottleRepository { SQLiteThrottleRepository(database: self) }
}
