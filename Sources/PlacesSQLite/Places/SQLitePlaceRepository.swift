import Foundation
import GRDB
import GRDBSQLite
import GeoIndex
import PlacesCore

/// Places in SQLite. Every write of a place row adds a row to the change feed in its own transaction (the feed's
/// triggers); one writer at a time makes the order of the feed's positions the order of the commits, so a reader of
/// `changes(since:)` reads on from the last position it saw.
public struct SQLitePlaceRepository: PlaceRepository {
    let database: PlacesDatabase

    public func place(id: String) async throws -> Place? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM place WHERE id = ?", arguments: [id]).map(PlaceRow.place)
        }
    }

    public func liveSummaries(into receiver: any PlaceSummaryReceiver) async throws -> PlaceSnapshot {
        try await database.read { db in
            let feed = try SQLitePlaceRepository.feedState(db)
            var batch: [PlaceSummary] = []
            batch.reserveCapacity(PlaceSnapshot.batchSize)
            var shared = SharedValues()
            let cursor = try Row.fetchCursor(db, sql: "SELECT \(PlaceRow.summaryColumns) FROM place WHERE deleted_at IS NULL")
            while let row = try cursor.next() {
                if let summary = PlaceRow.summary(row, shared: &shared) { batch.append(summary) }
                if batch.count == PlaceSnapshot.batchSize {
                    receiver.receive(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            receiver.receive(batch)
            sqlite3_db_release_memory(db.sqliteConnection)
            return PlaceSnapshot(summaries: [], revision: feed.revision, generation: feed.generation, reach: feed.revision)
        }
    }

    public func changes(since revision: Int64, limit: Int, rereading: @escaping @Sendable () -> Set<String>) async throws -> PlaceChanges? {
        try await database.read { db in
            let feed = try SQLitePlaceRepository.feedState(db)
            // Ahead of the feed: another database was put in place of this one. Behind what was pruned: changes are
            // missing. Only a whole snapshot is right then.
            guard revision <= feed.revision, revision + 1 >= feed.prunedBelow else { return nil }
            var changes = PlaceChanges(upserted: [], deleted: [], revision: feed.revision, generation: feed.generation, reach: feed.revision)
            let reread = String(data: try JSONEncoder().encode(Array(rereading())), encoding: .utf8) ?? "[]"
            // The places the feed names after the position, and those to re-read, each once, in the order of its last
            // change; a place with no row any more counts as deleted.
            // One more than the limit tells that there are more.
            var shared = SharedValues()
            let columns = PlaceRow.summaryColumns.split(separator: ",").map { "place." + $0.trimmingCharacters(in: .whitespaces) }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(columns.joined(separator: ", ")), place.id IS NULL OR place.deleted_at IS NOT NULL, changed.subject
                    FROM (
                        SELECT subject, max(position) AS last FROM (
                            SELECT subject, position FROM feed WHERE position > ? AND kind = 'place'
                            UNION ALL SELECT value, 9223372036854775807 FROM json_each(?)
                        ) GROUP BY subject
                    ) AS changed LEFT JOIN place ON place.id = changed.subject
                    ORDER BY changed.last, changed.subject
                    LIMIT ?
                    """,
                arguments: [revision, reread, limit + 1]
            )
            guard rows.count <= limit else { return nil }
            for row in rows {
                if row[PlaceRow.summaryColumnCount] as Bool {
                    changes.deleted.append(row[PlaceRow.summaryColumnCount + 1])
                } else if let summary = PlaceRow.summary(row, shared: &shared) {
                    changes.upserted.append(summary)
                }
            }
            return changes
        }
    }

    public func unapplied(since revision: Int64, leavingOut applied: Set<String>) async throws -> UnappliedChanges {
        let leftOut = String(data: try JSONEncoder().encode(Array(applied)), encoding: .utf8) ?? "[]"
        return try await database.readStatement { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT count(DISTINCT subject), coalesce((julianday('now') - julianday(min(created_at))) * 86400.0, 0) FROM feed
                    WHERE position > ? AND kind = 'place' AND subject NOT IN (SELECT value FROM json_each(?))
                    """,
                arguments: [revision, leftOut]
            )
            return UnappliedChanges(changes: row?[0] ?? 0, oldestSeconds: max(0, row?[1] ?? 0))
        }
    }

    public func beginSeed() async throws -> any SeedTransaction {
        SQLiteSeedTransaction(database: database)
    }

    /// Opens a seed's write transaction on `db`: takes its stamp and, into an empty table, sets aside the triggers that
    /// keep the feed in step (row by row they cost every insert a write); answers what `finishSeed` needs to put them
    /// back.
    static func startSeed(_ db: Database) throws -> (revision: Int64, triggers: [(name: String, sql: String)]?) {
        // A large seed touches pages all over the two B-trees; a bigger page cache (for this transaction only)
        // keeps them in memory instead of re-reading and re-writing them.
        try db.execute(sql: "PRAGMA cache_size = -262144")
        let revision = try SQLitePlaceRepository.writerStamp(db)
        guard try !db.exists("SELECT 1 FROM place") else { return (revision, nil) }
        let triggers: [(name: String, sql: String)] = try Row.fetchAll(
            db,
            sql: "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'place'"
        ).map { ($0["name"], $0["sql"]) }
        for trigger in triggers { try db.execute(sql: "DROP TRIGGER \(trigger.name.quotedDatabaseIdentifier)") }
        return (revision, triggers)
    }

    /// Records every place in the feed and puts the triggers back (after a bulk load), inside the seed's transaction.
    static func finishSeed(_ db: Database, triggers: [(name: String, sql: String)]?) throws {
        if let triggers {
            // The time the feed's default would give every row (SQLite's 'now' holds for the whole statement), worked
            // out once instead of once a row: a quarter of the statement's time at a million places.
            try db.execute(
                sql: """
                    INSERT INTO feed (kind, subject, created_at)
                    SELECT 'place', id, (SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) FROM place
                    """
            )
            for trigger in triggers { try db.execute(sql: trigger.sql) }
        }
    }

    public func liveCount() async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM place WHERE deleted_at IS NULL") ?? 0
        }
    }

    public func isEmpty() async throws -> Bool {
        try await database.read { db in
            try !db.exists("SELECT 1 FROM place")
        }
    }

    /// Where the change feed stands: its last position (every change at or below it is committed and visible, one
    /// writer at a time), the database's generation, and the position below which rows were pruned.
    static func feedState(_ db: Database) throws -> (revision: Int64, generation: String, prunedBelow: Int64) {
        guard let row = try Row.fetchOne(
            db,
            sql: """
                SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'feed'), 0) AS revision, generation, feed_pruned_below
                FROM change_counter WHERE id = 1
                """
        ) else { return (0, "", 0) }
        return (row["revision"], row["generation"], row["feed_pruned_below"])
    }

    /// The feed's last position.
    static func revision(_ db: Database) throws -> Int64 {
        try feedState(db).revision
    }

    /// What the rows the current write transaction writes carry as their revision: the position its first feed row
    /// takes, unique to the transaction (a seed tells the rows it wrote itself by it).
    static func writerStamp(_ db: Database) throws -> Int64 {
        try revision(db) + 1
    }
}

/// Upserts seeded places inside a seed transaction with one prepared statement.
struct SQLiteSeedWriter {
    let db: Database
    let revision: Int64
    var binding: PlaceBinding
    /// Places written whose id no place held before.
    private(set) var added = 0

    init(db: Database, revision: Int64) throws {
        self.db = db
        self.revision = revision
        // Re-seeding an unchanged row keeps its updated_at: only content that differs counts as an update. The
        // revision is always stamped, since it is how a file naming an id twice is noticed.
        let content = PlaceRow.columns.filter { !["id", "created_at", "updated_at", "owner_id", "revision"].contains($0) }
        let unchanged = content.map { "place.\($0) IS excluded.\($0)" }.joined(separator: " AND ")
        let updates =
            (content + ["revision"]).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            + ", updated_at = CASE WHEN \(unchanged) THEN place.updated_at ELSE excluded.updated_at END"
        // A row already at this transaction's revision came from the same file: the update is skipped and the
        // writer reports the duplicate, so no per-file set of ids is needed.
        binding = try PlaceBinding(
            db: db,
            sql: PlaceRow.insertSQL
                + " ON CONFLICT (id) DO UPDATE SET \(updates) WHERE place.seed_source IS NOT NULL AND place.revision <> excluded.revision"
        )
    }

    /// Writes the place; the refusal when it belongs to the API or this transaction wrote it already.
    mutating func upsert(_ place: Place) throws -> PlacesError? {
        // An upsert that updates leaves the last inserted rowid alone, and an insert's rowid is never 0 (rowids start
        // at 1): so a 0 set before tells an insert from an update without reading the row.
        sqlite3_set_last_insert_rowid(db.sqliteConnection, 0)
        guard try binding.execute(place, revision: revision, in: db) == 0 else {
            if db.lastInsertedRowID != 0 { added += 1 }
            return nil
        }
        let stored = try Row.fetchOne(db, sql: "SELECT seed_source, revision FROM place WHERE id = ?", arguments: [place.id])
        if let stored, stored["revision"] == revision {
            return PlacesError.invalid("id", "duplicate id '\(place.id)': the file names it twice")
        }
        return PlacesError(.conflict, "id '\(place.id)' belongs to a place added through the API; seeds do not overwrite it", field: "id")
    }

    /// The seeded places under `idPrefix` inside `box` that this transaction did not write; deleted when `remove`.
    func unwritten(idPrefix: String, within box: GeoBox, sources: (String) -> Bool, remove: Bool, now: Date) throws -> [String] {
        // The prefix as a range of ids, which reads the primary key instead of every row.
        let longitude = box.crossesAntimeridian ? "(longitude >= ? OR longitude <= ?)" : "longitude BETWEEN ? AND ?"
        let ids = try Row.fetchAll(
            db,
            sql: """
                SELECT id, seed_source FROM place
                WHERE id >= ? AND id < ? AND seed_source IS NOT NULL AND deleted_at IS NULL AND revision <> ?
                    AND latitude BETWEEN ? AND ? AND \(longitude)
                ORDER BY id
                """,
            arguments: [idPrefix, IDPrefixRange.upperBound(of: idPrefix), revision, box.south, box.north, box.west, box.east]
        ).filter { sources($0["seed_source"]) }.map { $0["id"] as String }
        if remove {
            let stamp = Timestamp.text(now)
            let statement = try db.cachedStatement(sql: "UPDATE place SET deleted_at = ?, updated_at = ?, revision = ? WHERE id = ?")
            for id in ids { try statement.execute(arguments: [stamp, stamp, revision, id]) }
        }
        return ids
    }
}
