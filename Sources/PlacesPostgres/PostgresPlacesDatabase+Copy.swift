import Foundation
import GeoIndex
import Logging
import PlacesCore
import PostgresNIO

extension PostgresPlacesDatabase: CopySource {
    /// Reads every copied table in one REPEATABLE READ READ ONLY transaction (one snapshot of the database), each
    /// table streamed in primary-key order and handed on a batch at a time.
    public func readCopy(_ deliver: @escaping @Sendable (CopiedTable, [[StoredValue]]) async throws -> Void) async throws -> Int64 {
        try await snapshot(within: .none) { [logger] connection in
            let revision = try await FeedHorizon.read(on: connection, database: self).revision
            for table in DatabaseCopy.tables {
                let columns = table.columnNames.map(PostgresPlacesDatabase.quoted).joined(separator: ", ")
                let key = table.primaryKey.map(PostgresPlacesDatabase.quoted).joined(separator: ", ")
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT \(columns) FROM \(PostgresPlacesDatabase.quoted(table.name)) ORDER BY \(key)"),
                    logger: logger
                )
                var batch: [[StoredValue]] = []
                var bytes = 0
                batch.reserveCapacity(DatabaseCopy.batchSize)
                for try await row in rows {
                    let values = try PostgresCopiedRows.values(of: row, in: table)
                    batch.append(values)
                    bytes += values.reduce(0) { $0 + $1.size }
                    if DatabaseCopy.isFull(rows: batch.count, bytes: bytes) {
                        try await deliver(table, batch)
                        batch.removeAll(keepingCapacity: true)
                        bytes = 0
                    }
                }
                if !batch.isEmpty { try await deliver(table, batch) }
            }
            return revision
        }
    }
}

extension PostgresPlacesDatabase {
    /// Every table of the schema the database works in and its columns, for checking that a copy carries them all
    /// (`DatabaseCopy.uncovered`).
    public func tableColumns() async throws -> [String: [String]] {
        try await read { [logger] connection in
            let rows = try await connection.query(
                """
                SELECT table_name::text, column_name::text FROM information_schema.columns
                WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position
                """,
                logger: logger
            )
            var columns: [String: [String]] = [:]
            for try await (table, column) in rows.decode((String, String).self) { columns[table, default: []].append(column) }
            return columns
        }
    }
}

extension PostgresPlacesDatabase: CopyTarget {
    /// Writes the copy in one transaction that holds the copied tables and the feed against other writers,
    /// who wait for its commit (as do readers, when it replaces data). Each batch is streamed with COPY; the folded
    /// display name is computed on the way in.
    /// The commit notifies the change feed, so running instances see the new generation at once.
    public func writeCopy(
        replacing: Bool,
        generation: String,
        _ fill: @escaping @Sendable (any CopySink) async throws -> Int64
    ) async throws -> Int64 {
        try await write(within: .none) { [logger] connection in
            try await PostgresCopiedRows.prepare(connection, replacing: replacing, logger: logger)
            let sourceRevision = try await fill(PostgresCopySink(connection: connection, logger: logger))
            return try await PostgresCopiedRows.finish(connection, sourceRevision: sourceRevision, generation: generation, logger: logger)
        }
    }
}

/// Streams a copy's rows into their tables with COPY, inside the target's transaction.
private struct PostgresCopySink: CopySink {
    let connection: PostgresConnection
    let logger: Logger

    func insert(_ rows: [[StoredValue]], into table: CopiedTable) async throws {
        var buffer = ByteBuffer()
        let derived = PostgresCopiedRows.derivedColumns(of: table)
        for row in rows {
            PostgresCopiedRows.copyLine(row + derived.map { $0.value(row) }, into: &buffer)
        }
        try await connection.copyFrom(
            table: table.name,
            columns: table.columnNames + derived.map(\.name),
            logger: logger
        ) { writer in
            try await writer.write(buffer)
        }
    }
}

/// How copied rows are read from and written to PostgreSQL.
private enum PostgresCopiedRows {
    /// A column PostgreSQL computes from a row's other columns: its name and how its value is made.
    struct DerivedColumn {
        let name: String
        let value: ([StoredValue]) -> StoredValue
    }

    /// A row's values, as the table's columns' kinds read them.
    static func values(of row: PostgresRow, in table: CopiedTable) throws -> [StoredValue] {
        var values: [StoredValue] = []
        values.reserveCapacity(table.columns.count)
        for (cell, column) in zip(row, table.columns) {
            switch column.kind {
            case .text: values.append(try cell.decode(String?.self).map(StoredValue.text) ?? .null)
            case .integer: values.append(try cell.decode(Int64?.self).map(StoredValue.integer) ?? .null)
            case .real: values.append(try cell.decode(Double?.self).map(StoredValue.real) ?? .null)
            case .bool: values.append(try cell.decode(Bool?.self).map(StoredValue.bool) ?? .null)
            case .bytes: values.append(try cell.decode(Data?.self).map { StoredValue.bytes([UInt8]($0)) } ?? .null)
            }
        }
        return values
    }

    /// The columns `table` has on PostgreSQL beyond the copied ones: an account's folded display name.
    static func derivedColumns(of table: CopiedTable) -> [DerivedColumn] {
        switch table.name {
        case "user_account":
            guard let displayName = table.position(of: "display_name") else { return [] }
            return [DerivedColumn(name: "display_name_folded") { row in row[displayName].text.map { .text($0.folded) } ?? .null }]
        default:
            return []
        }
    }

    /// One line of COPY's text format: tab-separated fields, `\N` for NULL, the format's escapes.
    static func copyLine(_ values: [StoredValue], into buffer: inout ByteBuffer) {
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
            switch value {
            case .null: buffer.writeStaticString("\\N")
            case .integer(let number): buffer.writeString(String(number))
            case .real(let number): buffer.writeString(String(number))
            case .bool(let flag): buffer.writeStaticString(flag ? "t" : "f")
            case .text(let text): CopyText.writeEscaped(text, into: &buffer)
            case .bytes(let bytes): CopyText.writeBytes(bytes, into: &buffer)
            }
        }
        buffer.writeInteger(UInt8(ascii: "\n"))
    }

    /// Opens the copy in the transaction: locks the copied tables and the feed against other writers
    /// (readers go on while it checks), refuses a target holding data (`conflict`) unless `replacing`, which empties
    /// the copied tables with TRUNCATE (readers then wait for the commit: a DELETE of a million places checks every
    /// foreign key of every row and takes minutes).
    static func prepare(_ connection: PostgresConnection, replacing: Bool, logger: Logger) async throws {
        let tables = DatabaseCopy.tables.map { PostgresPlacesDatabase.quoted($0.name) }.joined(separator: ", ")
        try await connection.query(PostgresQuery(unsafeSQL: "LOCK TABLE change_counter, feed, \(tables) IN EXCLUSIVE MODE"), logger: logger)
        var holdingRows: CopiedTable?
        for table in DatabaseCopy.tables where holdingRows == nil {
            let query = PostgresQuery(unsafeSQL: "SELECT EXISTS (SELECT 1 FROM \(PostgresPlacesDatabase.quoted(table.name)))")
            if try await connection.value(query, as: Bool.self, logger: logger) == true { holdingRows = table }
        }
        if let holdingRows {
            guard replacing else { throw DatabaseCopy.notEmpty(holdingRows.name) }
            try await connection.query(PostgresQuery(unsafeSQL: "TRUNCATE \(tables)"), logger: logger)
        }
        // The copy's places would each add a row to the feed; instances reload everything at the new generation.
        try await connection.query("ALTER TABLE place DISABLE TRIGGER place_feed_insert", logger: logger)
    }

    /// Closes the copy in the transaction: the feed starts empty and the database takes the new generation, and the feed's listeners are notified at commit (once, for the whole copy); answers the copy's
    /// position in the feed.
    static func finish(_ connection: PostgresConnection, sourceRevision: Int64, generation: String, logger: Logger) async throws -> Int64 {
        try await connection.query("ALTER TABLE place ENABLE TRIGGER place_feed_insert", logger: logger)
        // The feed's rows name what was there before (or what the copy wrote): it starts empty at the new generation.
        try await connection.query("TRUNCATE feed", logger: logger)
        let revision = try await connection.value(
            """
            WITH moved AS (
                UPDATE change_counter SET generation = \(generation) WHERE id = 1
                RETURNING pg_notify(\(PostgresPlacesDatabase.feedChannel), '') IS NULL AS notified
            )
            SELECT \(unescaped: PostgresPlaceRow.writerStamp) FROM moved
            """,
            as: Int64.self,
            logger: logger
        )
        guard let revision else { throw PlacesError(.internalError, "the feed's state is missing") }
        return revision
    }
}

extension StoredValue {
    /// The text this value holds, nil for any other kind.
    fileprivate var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}
