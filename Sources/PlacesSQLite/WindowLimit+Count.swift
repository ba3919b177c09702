import Foundation
import GRDB
import PlacesCore

extension WindowLimit {
    /// When the oldest of the rows of `table` whose `column` is `key` that reach the bound was made: the `allowed`-th
    /// newest of those made in the window (by `created_at`), or nil while there is room. Run inside the write that
    /// stores the next row: SQLite's one writer at a time makes the count exact.
    func oldestCounted(in table: String, where column: String, is key: String, _ db: Database) throws -> Date? {
        try String.fetchOne(
            db,
            sql: """
                SELECT created_at FROM \(table) WHERE \(column) = ? AND created_at >= ?
                ORDER BY created_at DESC LIMIT 1 OFFSET ?
                """,
            arguments: [key, Timestamp.text(since), max(allowed - 1, 0)]
        ).map { Timestamp.date($0) ?? since }
    }
}
