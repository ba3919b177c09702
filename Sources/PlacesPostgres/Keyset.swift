import PlacesCore
import PostgresNIO

/// Paging by key in SQL: a list's order, written once, gives both its `ORDER BY` and the condition that keeps the rows
/// after a page's last sort key (as PlacesSQLite's keyset does). Both go into a query by interpolation:
/// `"SELECT … WHERE owner = \(id) AND \(after) \(orderBy: after) LIMIT \(page.fetchLimit)"`.
struct Keyset: Sendable {
    /// A column of a list's order (an SQL expression), ascending or descending.
    struct Column: Sendable {
        var sql: String
        var descending = false
    }

    /// The order.
    let columns: [Column]
    /// The last key of the page before (one value per column), or nil from the start.
    let key: [any PostgresDynamicTypeEncodable & Sendable]?

    /// The order continuing after `key`, or from the start without one.
    init(_ columns: [Column], after key: [any PostgresDynamicTypeEncodable & Sendable]?) {
        self.columns = columns
        self.key = key.flatMap { $0.count == columns.count ? $0 : nil }
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

extension PostgresQuery.StringInterpolation {
    /// The keyset's condition: `(c1 > $1 OR (c1 = $1 AND (c2 > $2 …)))`, with `<` for a descending column; `TRUE`
    /// without a key.
    mutating func appendInterpolation(_ keyset: Keyset) {
        guard let key = keyset.key else {
            appendLiteral("TRUE")
            return
        }
        appendLiteral("(")
        for (index, column) in keyset.columns.enumerated() {
            appendLiteral("\(column.sql) \(column.descending ? "<" : ">") ")
            appendInterpolation(key[index])
            guard index < keyset.columns.count - 1 else { break }
            appendLiteral(" OR (\(column.sql) = ")
            appendInterpolation(key[index])
            appendLiteral(" AND (")
        }
        appendLiteral(String(repeating: "))", count: keyset.columns.count - 1) + ")")
    }

    /// The keyset's `ORDER BY`.
    mutating func appendInterpolation(orderBy keyset: Keyset) {
        appendLiteral(keyset.orderBy)
    }
}

extension PageRequest {
    /// The page of `rows`, each read into an item and its sort key (the keyset's columns, as text).
    func page<Item>(
        _ rows: [PostgresRandomAccessRow],
        read: (PostgresRandomAccessRow) throws -> (item: Item, key: [String])
    ) throws -> Page<Item> {
        page(try rows.map(read))
    }
}
