import Foundation
import GRDB
import PlacesCore

/// The change feed's own operations in SQLite. One writer at a time holds no horizon back, so its age is always 0.
public struct SQLiteFeedRepository: ChangeFeedRepository {
    let database: PlacesDatabase

    public func feedHorizonAge() async throws -> Double { 0 }

    public var commits: Doorbells { database.commits }

    public func pruneFeed(writtenBefore date: Date) async throws -> Int {
        try await database.write { db in
            // One writer at a time appends the feed in time order, so its old rows are its first: the walk stops at the
            // first row young enough to stay. (The newest old row's position, looked for from the newest row down, read
            // every row of a feed with nothing old in it: 1.3 s holding the write lock at the start of a server whose
            // seed wrote 10M rows, and again every hour for a day.)
            let firstKept = try Int64.fetchOne(
                db,
                sql: "SELECT position FROM feed WHERE created_at >= ? ORDER BY position LIMIT 1",
                arguments: [Timestamp.text(date)]
            )
            let last = try Int64.fetchOne(db, sql: "SELECT max(position) FROM feed WHERE position < ?", arguments: [firstKept ?? Int64.max])
            guard let last else { return 0 }
            try db.execute(sql: "DELETE FROM feed WHERE position <= ?", arguments: [last])
            let pruned = db.changesCount
            try db.execute(sql: "UPDATE change_counter SET feed_pruned_below = max(feed_pruned_below, ?) WHERE id = 1", arguments: [last + 1])
            return pruned
        }
    }
}

extension PlacesDatabase {
    /// The change feed of this database.
    public var feed: SQLiteFeedRepository { SQLiteFeedRepository(database: self) }
}
