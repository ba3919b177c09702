import Logging
import PlacesCore
import PostgresNIO

/// A statement that each connection prepares once: PostgreSQL then parses and plans it once per connection, not at
/// every run. For the statements that most requests run (a session's lookup, a place by id, a new place, a rating, a
/// ballot), where parsing and planning cost the server more than running them: the session lookup and a place by id
/// together ran 3× as fast prepared (`pgbench -M prepared` against `-M extended`, one million places).
///
/// PostgreSQL plans its first five runs for the values bound, then keeps one plan when that is no dearer (planning
/// every run of every statement instead, `plan_cache_mode = force_custom_plan`, cost the mixed load a fifth of its
/// rate). A plan kept while a table was small can scan it whole once it is large, until PostgreSQL analyses the table
/// again. Lookups by a key stay on their index however the table grows; a statement that reads a range of a table
/// which can grow by a million rows at once (the feed's positions, in one seed's transaction) runs in a function that
/// turns sequential scans off (`places_changes_read`, `places_live_events_read`), so that the plan it keeps reads the
/// range through the table's index whatever the table's size when it was planned.
///
/// Its parameters' types are declared (`bindingDataTypes`), so a NULL binds like any value whatever the first run
/// bound; each value must be of its parameter's type (checked as it binds). Its columns are named, never `*`: a
/// column that a later release's migration adds must not change the result of a statement that a running instance of
/// this release prepared (PostgreSQL refuses to run it then: "cached plan must not change result type").
protocol PreparedStatement: PostgresPreparedStatement where Row == PostgresRow {
    /// The values of its parameters ($1, $2, …), nil for NULL.
    var values: [(any PostgresThrowingDynamicTypeEncodable & Sendable)?] { get }
}

extension PreparedStatement {
    func makeBindings() throws -> PostgresBindings {
        guard values.count == Self.bindingDataTypes.count else {
            throw PlacesError(.internalError, "the statement \(Self.name) binds \(values.count) values to \(Self.bindingDataTypes.count) parameters")
        }
        var bindings = PostgresBindings()
        for (value, type) in zip(values, Self.bindingDataTypes) {
            guard let value else {
                bindings.appendNull()
                continue
            }
            guard value.psqlType == type else {
                throw PlacesError(.internalError, "the statement \(Self.name) binds a \(value.psqlType) to a parameter of type \(type)")
            }
            try bindings.append(value)
        }
        return bindings
    }

    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

extension PostgresConnection {
    /// Every row `statement` answers, each ready to be read by column name (prepared on this connection the first time
    /// it runs there).
    func rows<Statement: PreparedStatement>(_ statement: Statement, logger: Logger) async throws -> [PostgresRandomAccessRow] {
        var rows: [PostgresRandomAccessRow] = []
        for try await row in try await execute(statement, logger: logger) { rows.append(row.makeRandomAccess()) }
        return rows
    }

    /// The first row the prepared `statement` answers, nil when none.
    func row<Statement: PreparedStatement>(_ statement: Statement, logger: Logger) async throws -> PostgresRandomAccessRow? {
        try await rows(statement, logger: logger).first
    }
}
