import GRDB
import PlacesCore

/// Paging by key in SQL: the condition that keeps the rows after a page's last sort key, in an order of columns.
enum Keyset {
    /// A column of a list's order (an SQL expression, a collation included), ascending or descending.
    struct Column {
        var sql: String
        var descending = false
    }

    /// `(c1 > ?) OR (c1 = ? AND (c2 > ? OR …))` for `key`, with `<` for a descending column; `TRUE` without a key.
    static func condition(_ columns: [Column], after key: [any DatabaseValueConvertible & Sendable]?) -> (sql: String, arguments: StatementArguments) {
        guard let key, key.count == columns.count else { return ("TRUE", []) }
        var sql = ""
        var arguments: StatementArguments = []
        for (index, column) in columns.enumerated().reversed() {
            let beyond = "\(column.sql) \(column.descending ? "<" : ">") ?"
            if sql.isEmpty {
                sql = beyond
                arguments = [key[index]]
            } else {
                sql = "\(beyond) OR (\(column.sql) = ? AND (\(sql)))"
                arguments = [key[index], key[index]] + arguments
            }
        }
        return ("(\(sql))", arguments)
    }
}
