import Foundation
import GRDB
import PlacesCore

extension PlacesDatabase: CopySource {
    /// Reads every copied table from one snapshot of the file (a read transaction held open on a connection of its
    /// own while writers go on), a page of rows at a time in primary-key order.
    public func readCopy(_ deliver: @escaping @Sendable (CopiedTable, [[StoredValue]]) async throws -> Void) async throws -> Int64 {
        guard let pool = writer as? DatabasePool else {
            throw PlacesError(.internalError, "a copy reads from a database file, not from memory")
        }
        do {
            let snapshot = try pool.makeSnapshot()
            let revision = try await snapshot.read { db in try SQLitePlaceRepository.revision(db) }
            for table in DatabaseCopy.tables {
                var after: [StoredValue]?
                while true {
                    let rows = try await snapshot.read { [after] db in try CopiedRows.page(of: table, after: after, db) }
                    if !rows.isEmpty { try await deliver(table, rows) }
                    guard DatabaseCopy.isFull(rows: rows.count, bytes: rows.joined().reduce(0) { $0 + $1.size }), let last = rows.last
                    else { break }
                    after = CopiedRows.key(of: last, in: table)
                }
            }
            return revision
        } catch let error as DatabaseError {
            throw PlacesDatabase.mapped(error)
        }
    }
}

extension PlacesDatabase {
    /// Every table of the database and its columns, for checking that a copy carries them all
    /// (`DatabaseCopy.uncovered`).
    public func tableColumns() async throws -> [String: [String]] {
        try await read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table'")
            var columns: [String: [String]] = [:]
            for table in tables {
                columns[table] = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
            }
            return columns
        }
    }
}

extension PlacesDatabase: CopyTarget {
    /// Writes the copy in one write transaction: the place table's triggers (the feed's) are set aside while the rows
    /// go in, and put back at the end.
    public func writeCopy(
        replacing: Bool,
        generation: String,
        _ fill: @escaping @Sendable (any CopySink) async throws -> Int64
    ) async throws -> Int64 {
        let transaction = OpenWriteTransaction(database: self)
        do {
            let triggers = try await transaction.perform { db in try CopiedRows.prepare(db, replacing: replacing) }
            let sourceRevision = try await fill(SQLiteCopySink(transaction: transaction))
            let revision = try await transaction.perform { db in
                try CopiedRows.finish(db, triggers: triggers, sourceRevision: sourceRevision, generation: generation)
            }
            try await transaction.commit()
            return revision
        } catch {
            await transaction.rollback()
            throw error
        }
    }
}

/// Inserts a copy's rows inside the open transaction.
private struct SQLiteCopySink: CopySink {
    let transaction: OpenWriteTransaction

    func insert(_ rows: [[StoredValue]], into table: CopiedTable) async throws {
        try await transaction.perform { db in
            let columns = table.columnNames.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            let marks = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
            let statement = try db.cachedStatement(
                sql: "INSERT INTO \(table.name.quotedDatabaseIdentifier) (\(columns)) VALUES (\(marks))"
            )
            for row in rows {
                // Every row has the table's columns: the per-row check of the arguments' count is skipped.
                statement.setUncheckedArguments(StatementArguments(row.map(CopiedRows.databaseValue)))
                try statement.execute()
            }
        }
    }
}

/// How copied rows are read from and written to SQLite.
private enum CopiedRows {
    /// Up to a batch of `table`'s rows after the key `after` (from the start when nil), in primary-key order: at most
    /// `DatabaseCopy.batchSize` rows, ending with the one that reaches `DatabaseCopy.batchBytes`.
    static func page(of table: CopiedTable, after: [StoredValue]?, _ db: Database) throws -> [[StoredValue]] {
        let columns = table.columnNames.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let key = table.primaryKey.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        var sql = "SELECT \(columns) FROM \(table.name.quotedDatabaseIdentifier)"
        var arguments = StatementArguments()
        if let after {
            sql += " WHERE (\(key)) > (\(Array(repeating: "?", count: after.count).joined(separator: ", ")))"
            arguments = StatementArguments(after.map(databaseValue))
        }
        sql += " ORDER BY \(key) LIMIT \(DatabaseCopy.batchSize)"
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        var rows: [[StoredValue]] = []
        var bytes = 0
        while let row = try cursor.next() {
            let values = table.columns.indices.map { storedValue(row[$0] as DatabaseValue, kind: table.columns[$0].kind) }
            rows.append(values)
            bytes += values.reduce(0) { $0 + $1.size }
            if DatabaseCopy.isFull(rows: rows.count, bytes: bytes) { break }
        }
        return rows
    }

    /// The primary key's values of `row`.
    static func key(of row: [StoredValue], in table: CopiedTable) -> [StoredValue] {
        table.primaryKey.compactMap { table.position(of: $0).map { row[$0] } }
    }

    /// A stored value as the column's kind reads it (booleans are 0/1 here).
    static func storedValue(_ value: DatabaseValue, kind: CopiedColumn.Kind) -> StoredValue {
        switch (value.storage, kind) {
        case (.null, _): .null
        case (.int64(let number), .bool): .bool(number != 0)
        case (.int64(let number), .real): .real(Double(number))
        case (.int64(let number), .text): .text(String(number))
        case (.int64(let number), .integer), (.int64(let number), .bytes): .integer(number)
        case (.double(let number), .integer): .integer(Int64(number))
        case (.double(let number), .text): .text(String(number))
        case (.double(let number), _): .real(number)
        case (.string(let text), .bytes): .bytes(Array(text.utf8))
        case (.string(let text), _): .text(text)
        case (.blob(let data), .bytes): .bytes([UInt8](data))
        case (.blob(let data), _): .text(String(decoding: data, as: UTF8.self))
        }
    }

    /// A value as SQLite stores it: a boolean as 1 or 0.
    static func databaseValue(_ value: StoredValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .bool(let flag): (flag ? 1 : 0).databaseValue
        case .bytes(let bytes): Data(bytes).databaseValue
        }
    }

    /// Opens the copy in the transaction: refuses a target holding data (`conflict`) unless `replacing`, which empties
    /// the copied tables, children first; sets the place table's triggers aside (answered, to put back).
    static func prepare(_ db: Database, replacing: Bool) throws -> [Trigger] {
        let holdingRows = try DatabaseCopy.tables.first { try db.exists("SELECT 1 FROM \($0.name.quotedDatabaseIdentifier)") }
        if let holdingRows, !replacing { throw DatabaseCopy.notEmpty(holdingRows.name) }
        let triggers = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'place'")
            .map { Trigger(name: $0["name"], sql: $0["sql"]) }
        for trigger in triggers { try db.execute(sql: "DROP TRIGGER \(trigger.name.quotedDatabaseIdentifier)") }
        if holdingRows != nil {
            for table in DatabaseCopy.tables.reversed() { try db.execute(sql: "DELETE FROM \(table.name.quotedDatabaseIdentifier)") }
        }
        return triggers
    }

    /// Closes the copy in the transaction: puts the triggers back, empties the feed (its rows name what was there
    /// before) and moves its position to at least the source's (and past its own) under the new generation; answers
    /// the position.
    static func finish(_ db: Database, triggers: [Trigger], sourceRevision: Int64, generation: String) throws -> Int64 {
        for trigger in triggers { try db.execute(sql: trigger.sql) }
        try db.execute(sql: "DELETE FROM feed")
        try db.execute(
            sql: "UPDATE sqlite_sequence SET seq = max(seq + 1, ?) WHERE name = 'feed'",
            arguments: [sourceRevision]
        )
        try db.execute(sql: "UPDATE change_counter SET generation = ?, feed_pruned_below = 0 WHERE id = 1", arguments: [generation])
        return try SQLitePlaceRepository.revision(db)
    }
}

/// A trigger set aside: its name and the SQL that creates it again.
private struct Trigger: Sendable {
    let name: String
    let sql: String
}

/// A write transaction held open on the writer's queue across awaits: GRDB runs a transaction as one closure there,
/// so the closure stays open and runs the jobs it is handed, in order, until commit or rollback. Other writes wait
/// meanwhile, as they wait for any write.
private final class OpenWriteTransaction: Sendable {
    /// What the transaction is asked to do next.
    private enum Command {
        /// Work to run in the transaction, and what to do instead when the transaction ended before it ran.
        case job(run: @Sendable (Database) throws -> Void, abandon: @Sendable () -> Void)
        case commit
        case rollback
    }

    private struct RolledBack: Error {}

    private let mailbox = Mailbox<Command>()
    private let outcome: Task<Void, any Error>

    init(database: PlacesDatabase) {
        let mailbox = self.mailbox
        outcome = Task {
            defer { for case .job(_, let abandon) in mailbox.end() { abandon() } }
            do {
                try await database.write { db in try OpenWriteTransaction.serve(mailbox, in: db) }
            } catch is RolledBack {
                return
            }
        }
    }

    deinit { mailbox.post(.rollback) }

    /// Runs `job` inside the transaction; a job that throws ends the transaction, rolled back.
    func perform<T: Sendable>(_ job: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let abandon: @Sendable () -> Void = {
                continuation.resume(throwing: PlacesError(.internalError, "the copy's transaction has ended"))
            }
            let run: @Sendable (Database) throws -> Void = { db in
                do {
                    continuation.resume(returning: try job(db))
                } catch {
                    continuation.resume(throwing: (error as? DatabaseError).map(PlacesDatabase.mapped) ?? error)
                    throw error
                }
            }
            if !mailbox.post(.job(run: run, abandon: abandon)) { abandon() }
        }
    }

    /// Commits what the jobs wrote.
    func commit() async throws {
        mailbox.post(.commit)
        try await outcome.value
    }

    /// Leaves nothing of the jobs behind.
    func rollback() async {
        mailbox.post(.rollback)
        _ = try? await outcome.value
    }

    /// The open transaction: runs each job as it comes, until commit (returning, so GRDB commits) or rollback or a
    /// failed job (throwing, so it rolls back).
    private static func serve(_ mailbox: Mailbox<Command>, in db: Database) throws {
        while true {
            switch mailbox.take() {
            case .job(let run, _): try run(db)
            case .commit: return
            case .rollback: throw RolledBack()
            }
        }
    }
}

/// Values handed from async callers to a closure waiting on the writer's queue (never on Swift's cooperative pool).
///
/// `@unchecked Sendable` is sound because its state is read and written only while `condition` is locked.
private final class Mailbox<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [Value] = []
    private var ended = false

    /// Hands `value` over; false when the receiver has ended.
    @discardableResult
    func post(_ value: Value) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !ended else { return false }
        values.append(value)
        condition.signal()
        return true
    }

    /// The next value, waiting for it.
    func take() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while values.isEmpty { condition.wait() }
        return values.removeFirst()
    }

    /// Refuses later values, answering those never taken.
    func end() -> [Value] {
        condition.lock()
        defer { condition.unlock() }
        ended = true
        let left = values
        values = []
        return left
    }
}
