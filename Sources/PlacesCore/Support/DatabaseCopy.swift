import Foundation

// `places copy`: a whole database moved from one engine to the other, through an engine-neutral row format. Each
// storage target reads its tables as `StoredValue` rows (`CopySource`) and writes them (`CopyTarget`); the CLI joins
// the two with `DatabaseCopy.copy`.

/// One column's value as both engines store it: booleans are INTEGER 0/1 on SQLite and BOOLEAN on PostgreSQL, and
/// read back as `bool` from either; timestamps and JSON are the same text on both.
public enum StoredValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case bool(Bool)
    /// A BLOB on SQLite, `bytea` on PostgreSQL (photos' bytes).
    case bytes([UInt8])

    /// About how much memory the value holds: what bounds a batch of rows by bytes.
    public var size: Int {
        switch self {
        case .text(let text): 16 + text.utf8.count
        case .bytes(let bytes): 16 + bytes.count
        default: 16
        }
    }
}

/// A column a copy carries: its name and what kind of value it holds.
public struct CopiedColumn: Sendable, Hashable {
    /// What a column holds, whatever the engine calls it.
    public enum Kind: Sendable, Hashable {
        case integer, real, text, bool, bytes
    }

    public let name: String
    public let kind: Kind

    /// A column named `name` holding values of `kind`.
    public init(_ name: String, _ kind: Kind = .text) {
        self.name = name
        self.kind = kind
    }
}

/// A table a copy carries: its columns in the order rows give them, and its primary key (the order it is read in).
public struct CopiedTable: Sendable, Hashable {
    public let name: String
    public let columns: [CopiedColumn]
    /// The primary key's columns (some of `columns`).
    public let primaryKey: [String]

    /// The column names in order.
    public var columnNames: [String] { columns.map(\.name) }

    /// The position of the column named `name` in a row.
    public func position(of name: String) -> Int? { columns.firstIndex { $0.name == name } }
}

/// What a copy wrote: the rows of each table, and the generation and feed position the target now carries.
public struct CopyReport: Sendable, Hashable, Encodable {
    /// One table's count.
    public struct TableCount: Sendable, Hashable, Encodable {
        public var table: String
        public var rows: Int
    }

    /// Every copied table in the order they were written, with its rows.
    public var tables: [TableCount]
    /// The target's new generation id: running instances that see it reload everything.
    public var generation: String
    /// The target's position in its own change feed after the copy (positions of another database mean nothing to it:
    /// the new generation tells running instances to load everything).
    public var revision: Int64
}

/// A database that can be read whole, in one consistent snapshot, for a copy.
public protocol CopySource: Sendable {
    /// Reads every table of `DatabaseCopy.tables` in that order from one consistent snapshot, handing the rows to
    /// `deliver` in batches of at most `DatabaseCopy.batchSize` rows and about `DatabaseCopy.batchBytes` (a batch ends
    /// with the row that reaches it; each table's rows in primary-key order), and answers
    /// the feed position of that snapshot.
    func readCopy(_ deliver: @escaping @Sendable (CopiedTable, [[StoredValue]]) async throws -> Void) async throws -> Int64
}

/// A database that can take a copy, written in one transaction.
public protocol CopyTarget: Sendable {
    /// Runs `fill` inside one write transaction of this database, after checking that the copied tables are empty
    /// (`conflict` naming `--replace` when not, unless `replacing`, which empties them first in the same transaction).
    /// The rows `fill` hands to its sink are inserted, derived columns (search indexes, folded names) computed on the
    /// way. Then the generation becomes `generation` and the transaction commits; when anything throws, nothing of it
    /// stays. Answers the target's feed position (on SQLite at least `fill`'s answer and greater than before).
    func writeCopy(
        replacing: Bool,
        generation: String,
        _ fill: @escaping @Sendable (any CopySink) async throws -> Int64
    ) async throws -> Int64
}

/// Where a copy's rows go, inside the target's transaction.
public protocol CopySink: Sendable {
    /// Inserts `rows` (each in `table.columns` order) into `table`.
    func insert(_ rows: [[StoredValue]], into table: CopiedTable) async throws
}

/// The tables a copy carries and the copy itself.
public enum DatabaseCopy {
    /// Rows read and written at a time, at most.
    public static let batchSize = 1_000
    /// About how many bytes of values a batch holds at most: photos' chunks (256 KiB each) go a few dozen at a time, not
    /// a thousand.
    public static let batchBytes = 8 * 1_048_576

    /// True when a batch of `rows` holding `bytes` is full.
    public static func isFull(rows: Int, bytes: Int) -> Bool { rows >= batchSize || bytes >= batchBytes }

    /// Every table a copy carries, parents before children (foreign-key order), each with the columns both engines
    /// store. Not here: the change feed and its state (the target keeps its own), schema bookkeeping, SQLite's
    /// search index and PostgreSQL's search and folded-name columns (computed on the way in), and transient state
    /// (the login throttle, the deadline task's lease).
    public static let tables: [CopiedTable] = [
        CopiedTable(
            name: "place",
            columns: [
                .init("id"), .init("kind"), .init("name"), .init("description"), .init("latitude", .real), .init("longitude", .real),
                .init("address"), .init("city"), .init("tags"), .init("cuisine"), .init("price_level", .integer), .init("phone"),
                .init("website"), .init("opening_hours"), .init("time_zone"), .init("owner_id"), .init("seed_source"),
                .init("created_at"), .init("updated_at"), .init("deleted_at"), .init("revision", .integer),
                .init("rating_count", .integer), .init("rating_sum", .integer), .init("photo_count", .integer),
                .init("cover_photo_id"),
            ],
            primaryKey: ["id"]
        ),
        CopiedTable(
            name: "user_account",
            columns: [
                .init("id"), .init("username"), .init("username_key"), .init("email"), .init("phone"), .init("password_hash"),
                .init("display_name"), .init("bio"), .init("city"), .init("avatar_url"), .init("created_at"), .init("updated_at"),
                .init("picture_id"),
            ],
            primaryKey: ["id"]
        ),
        CopiedTable(
            name: "session",
            columns: [.init("token_hash"), .init("user_id"), .init("created_at"), .init("expires_at")],
            primaryKey: ["token_hash"]
        ),
        CopiedTable(name: "user_settings", columns: [.init("user_id"), .init("settings"), .init("updated_at")], primaryKey: ["user_id"]),
        CopiedTable(name: "favorite", columns: [.init("user_id"), .init("place_id"), .init("created_at")], primaryKey: ["user_id", "place_id"]),
        CopiedTable(
            name: "rating",
            columns: [.init("user_id"), .init("place_id"), .init("stars", .integer), .init("review"), .init("created_at"), .init("updated_at")],
            primaryKey: ["user_id", "place_id"]
        ),
        CopiedTable(
            name: "photo_content",
            columns: [.init("hash"), .init("byte_count", .integer), .init("chunk_count", .integer)],
            primaryKey: ["hash"]
        ),
        CopiedTable(
            name: "photo_chunk",
            columns: [.init("hash"), .init("seq", .integer), .init("bytes", .bytes)],
            primaryKey: ["hash", "seq"]
        ),
        CopiedTable(
            name: "photo",
            columns: [
                .init("id"), .init("place_id"), .init("user_id"), .init("hash"), .init("format"), .init("width", .integer),
                .init("height", .integer), .init("byte_count", .integer), .init("caption"), .init("created_at"),
            ],
            primaryKey: ["id"]
        ),
        CopiedTable(
            name: "friendship",
            columns: [.init("requester_id"), .init("addressee_id"), .init("status"), .init("created_at"), .init("accepted_at")],
            primaryKey: ["requester_id", "addressee_id"]
        ),
        CopiedTable(
            name: "place_group",
            columns: [.init("id"), .init("name"), .init("description"), .init("picture_url"), .init("created_at"), .init("updated_at")],
            primaryKey: ["id"]
        ),
        CopiedTable(
            name: "group_member",
            columns: [.init("group_id"), .init("user_id"), .init("role"), .init("joined_at")],
            primaryKey: ["group_id", "user_id"]
        ),
        CopiedTable(
            name: "group_invitation",
            columns: [.init("group_id"), .init("invitee_id"), .init("inviter_id"), .init("created_at")],
            primaryKey: ["group_id", "invitee_id"]
        ),
        CopiedTable(
            name: "group_alert",
            columns: [.init("id"), .init("group_id"), .init("sender_id"), .init("created_at")],
            primaryKey: ["id"]
        ),
        CopiedTable(
            name: "place_collection",
            columns: [
                .init("id"), .init("owner_id"), .init("group_id"), .init("name"), .init("description"), .init("created_at"), .init("updated_at"),
            ],
            primaryKey: ["id"]
        ),
        CopiedTable(
            name: "collection_entry",
            columns: [.init("collection_id"), .init("place_id"), .init("position", .integer), .init("added_by"), .init("added_at")],
            primaryKey: ["collection_id", "place_id"]
        ),
        CopiedTable(
            name: "notification",
            columns: [
                .init("id"), .init("recipient_id"), .init("kind"), .init("message"), .init("subject"), .init("channels"), .init("created_at"),
                .init("read_at"),
            ],
            primaryKey: ["id"]
        ),
        CopiedTable(
            name: "decision",
            columns: [
                .init("id"), .init("group_id"), .init("created_by"), .init("title"), .init("method"), .init("status"), .init("candidates"),
                .init("weighted", .bool), .init("scheduled", .bool), .init("seed"), .init("deadline"), .init("visit_date"),
                .init("created_at"), .init("ended_at"), .init("reminder_sent_at"), .init("result"), .init("departures"),
                .init("version", .integer), .init("decision_version", .integer), .init("swipe_rule"), .init("round_result"),
                .init("visit_at"), .init("meet_without"),
            ],
            primaryKey: ["id"]
        ),
        CopiedTable(name: "decision_participant", columns: [.init("decision_id"), .init("user_id")], primaryKey: ["decision_id", "user_id"]),
        CopiedTable(
            name: "ballot",
            columns: [.init("decision_id"), .init("user_id"), .init("ranking"), .init("cast_at"), .init("updated_at")],
            primaryKey: ["decision_id", "user_id"]
        ),
        CopiedTable(
            name: "swipe",
            columns: [.init("decision_id"), .init("user_id"), .init("place_id"), .init("answer"), .init("updated_at")],
            primaryKey: ["decision_id", "user_id", "place_id"]
        ),
        CopiedTable(
            name: "decision_message",
            columns: [.init("id"), .init("decision_id"), .init("author_id"), .init("text"), .init("created_at")],
            primaryKey: ["id"]
        ),
        CopiedTable(
            name: "user_block",
            columns: [.init("blocker_id"), .init("blocked_id"), .init("created_at")],
            primaryKey: ["blocker_id", "blocked_id"]
        ),
        CopiedTable(name: "user_status", columns: [.init("user_id"), .init("text"), .init("expires_at")], primaryKey: ["user_id"]),
        CopiedTable(
            name: "declined_request",
            columns: [.init("kind"), .init("subject_id"), .init("recipient_id"), .init("declined_at")],
            primaryKey: ["kind", "subject_id", "recipient_id"]
        ),
    ]

    /// What a copy leaves out on purpose, as `table` or `table.column` (a trailing `*` matches any rest): the change
    /// feed and its state (the target keeps its own), schema bookkeeping, folded names (computed on the way in), the
    /// PostgreSQL column search no longer writes (`place.search`, kept for a rolling upgrade), transient state (the
    /// login throttle's attempts, the leases of tasks run on one instance and of open live streams), and the engines'
    /// own tables.
    public static let leftOut: [String] = [
        "change_counter", "feed", "feed_late_commit", "grdb_migrations", "schema_migration", "sqlite_*", "throttle_attempt", "lease",
        "live_stream", "live_holder", "place.search", "user_account.display_name_folded",
    ]

    /// The columns of a database's tables (`schema`: table → columns) that a copy would lose: neither carried nor left
    /// out on purpose, as `table.column`, sorted. A migration that adds a table or a column must add it to `tables`
    /// or to `leftOut`; the copy tests check both engines' schemas with this.
    public static func uncovered(_ schema: [String: [String]]) -> [String] {
        let carried = Set(tables.flatMap { table in table.columnNames.map { "\(table.name).\($0)" } })
        func isLeftOut(_ name: String) -> Bool {
            leftOut.contains { $0.hasSuffix("*") ? name.hasPrefix($0.dropLast()) : name == $0 }
        }
        return schema.flatMap { table, columns in
            isLeftOut(table) ? [] : columns.map { "\(table).\($0)" }.filter { !carried.contains($0) && !isLeftOut($0) }
        }.sorted()
    }

    /// Copies every table of `source`, read in one snapshot, into `target`, written in one transaction; refused
    /// (`conflict`) when the target holds data, unless `replacing`. The target gets `generation` (a new id by
    /// default) and an empty change feed, so instances running on it reload instead of trusting their feed
    /// positions.
    public static func copy(
        from source: any CopySource,
        to target: any CopyTarget,
        replacing: Bool,
        generation: String = UUID().uuidString.lowercased()
    ) async throws -> CopyReport {
        let counts = RowCounts()
        let revision = try await target.writeCopy(replacing: replacing, generation: generation) { sink in
            try await source.readCopy { table, rows in
                try await sink.insert(rows, into: table)
                await counts.add(rows.count, to: table.name)
            }
        }
        let copied = await counts.all
        let tables = tables.map { CopyReport.TableCount(table: $0.name, rows: copied[$0.name] ?? 0) }
        return CopyReport(tables: tables, generation: generation, revision: revision)
    }

    /// The refusal of a target that holds data.
    public static func notEmpty(_ table: String) -> PlacesError {
        PlacesError(.conflict, "the target database is not empty (table \(table) has rows); pass --replace to empty it and copy over it")
    }
}

/// The rows copied so far, per table.
private actor RowCounts {
    private var counts: [String: Int] = [:]

    func add(_ rows: Int, to table: String) { counts[table, default: 0] += rows }

    var all: [String: Int] { counts }
}
