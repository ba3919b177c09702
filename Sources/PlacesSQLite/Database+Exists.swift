import GRDB

extension Database {
    /// True when `query` (a `SELECT`) finds at least one row: `SELECT EXISTS (query)`.
    func exists(_ query: String, arguments: StatementArguments = []) throws -> Bool {
        try Bool.fetchOne(self, sql: "SELECT EXISTS (\(query))", arguments: arguments) ?? false
    }
}
