import GRDB
import PlacesCore

/// Paging by key in SQL: a list's order, written once, gives both its `ORDER BY` and the condition that keeps the rows
/// after a page's last sort key.
struct Keyset {
    /// A column of a list's order (an SQL expression, a collation included), ascending or descending.
    struct Column {
        var sql: String
        var descending = false
    }

    /// The order.
    let columns: [Column]
    /// `(c1 > ?) OR (c1 = ? AND (c2 > ? OR …))` for the key, with `<` for a descending column; `TRUE` without a key.
    let sql: String
    /// The key's values for `sql`.
    let arguments: StatementArguments

    /// The order continuing after `key` (one value per column), or from the start without one.
    init(_ columns: [Column], after key: [any DatabaseValueConvertible & Sendable]?) {
        self.columns = columns
        guard let key, key.count == columns.count else {
            (sql, arguments) = ("TRUE", [])
            return
        }
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
        (self.sql, self.arguments) = ("(\(sql))", arguments)
    }

    /// The order continuing after the page's cursor, whose key must have one text per column.
    init(_ columns: [Column], page: PageRequest) throws(PlacesError) {
        self.init(columns, after: try page.after(parts: columns.count))
    }

    /// `ORDER BY` the columns.
    var orderBy: String {
        "ORDER BY " + columns.map { $0.sql + ($0.descending ? " DESC" : "") }.joined(separator: ", ")
    }
}

extension Keyset {
    /// One page of a list: the rows `query` selects (a `SELECT … WHERE …` the keyset's condition is added to with
    /// `AND`), in the keyset's order, at most the page's fetch limit, each read into an item and its sort key.
    func page<Item>(
        _ page: PageRequest,
        _ query: String,
        arguments: StatementArguments,
        in db: Database,
        read: (Row) throws -> (item: Item, key: [String])
    ) throws -> Page<Item> {
        let rows = try Row.fetchAll(
            db,
            sql: "\(query) AND \(sql)\n\(orderBy)\nLIMIT ?",
            arguments: arguments + self.arguments + [page.fetchLimit]
        )
        return page.page(try rows.map(read))
    }
}
