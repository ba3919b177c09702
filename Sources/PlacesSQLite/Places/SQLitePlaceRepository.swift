import Foundation
import GRDB
import PlacesCore

/// Places in SQLite. Every write bumps the change counter in its own transaction and stamps the rows it
/// touches with the new value, so readers of `changes(since:)` see changes in commit order.
public struct SQLitePlaceRepository: PlaceRepository {
    let database: PlacesDatabase

    public func place(id: String) async throws -> Place? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM place WHERE id = ?", arguments: [id]).map(PlaceRow.place)
        }
    }

    public func liveSummaries() async throws -> PlaceSnapshot {
        try await database.read { db in
            let (revision, generation) = try SQLitePlaceRepository.counter(db)
            var summaries: [PlaceSummary] = []
            var shared = SharedValues()
            let cursor = try Row.fetchCursor(db, sql: "SELECT \(PlaceRow.summaryColumns) FROM place WHERE deleted_at IS NULL")
            while let row = try cursor.next() {
                if let summary = PlaceRow.summary(row, shared: &shared) { summaries.append(summary) }
            }
            return PlaceSnapshot(summaries: summaries, revision: revision, generation: generation)
        }
    }

    public func changes(since revision: Int64, limit: Int) async throws -> PlaceChanges? {
        try await database.read { db in
            let (current, generation) = try SQLitePlaceRepository.counter(db)
            var changes = PlaceChanges(upserted: [], deleted: [], revision: current, generation: generation)
            var shared = SharedValues()
            guard current > revision else { return changes }
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM place WHERE revision > ?", arguments: [revision]) ?? 0
            guard count <= limit else { return nil }
            let cursor = try Row.fetchCursor(
                db,
                sql: "SELECT \(PlaceRow.summaryColumns), deleted_at IS NOT NULL FROM place WHERE revision > ? ORDER BY revision",
                arguments: [revision]
            )
            while let row = try cursor.next() {
                if row[PlaceRow.summaryColumnCount] as Bool {
                    changes.deleted.append(row[0])
                } else if let summary = PlaceRow.summary(row, shared: &shared) {
                    changes.upserted.append(summary)
                }
            }
            return changes
        }
    }

    public func changeCount(since revision: Int64) async throws -> Int {
        try await database.readStatement { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM place WHERE revision > ?", arguments: [revision]) ?? 0
        }
    }

    public func beginSeed() async throws -> any SeedTransaction {
        SQLiteSeedTransaction(database: database)
    }

    /// Opens a seed's write transaction on `db`: stamps its revision and, into an empty table, sets aside the triggers
    /// that keep the search index in step (row by row they cost every insert a savepoint and a write on the index);
    /// answers what `finishSeed` needs to put them back.
    static func startSeed(_ db: Database) throws -> (revision: Int64, triggers: [(name: String, sql: String)]?) {
        // A large seed touches pages all over the two B-trees; a bigger page cache (for this transaction only)
        // keeps them in memory instead of re-reading and re-writing them.
        try db.execute(sql: "PRAGMA cache_size = -262144")
        let revision = try SQLitePlaceRepository.bumpRevision(db)
        guard try !db.exists("SELECT 1 FROM place") else { return (revision, nil) }
        let triggers: [(name: String, sql: String)] = try Row.fetchAll(
            db,
            sql: "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'place'"
        ).map { ($0["name"], $0["sql"]) }
        for trigger in triggers { try db.execute(sql: "DROP TRIGGER \(trigger.name.quotedDatabaseIdentifier)") }
        return (revision, triggers)
    }

    /// Builds the search index once and puts the triggers back (after a bulk load), inside the seed's transaction.
    static func finishSeed(_ db: Database, triggers: [(name: String, sql: String)]?) throws {
        if let triggers {
            try db.execute(sql: "INSERT INTO place_search (place_search) VALUES ('rebuild')")
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

    /// The change counter's current value.
    static func revision(_ db: Database) throws -> Int64 {
        try counter(db).revision
    }

    /// The change counter's current value and the database's generation.
    static func counter(_ db: Database) throws -> (revision: Int64, generation: String) {
        guard let row = try Row.fetchOne(db, sql: "SELECT value, generation FROM change_counter WHERE id = 1") else { return (0, "") }
        return (row["value"], row["generation"])
    }

    /// Increments the change counter inside the current write transaction and returns the new value.
    static func bumpRevision(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "UPDATE change_counter SET value = value + 1 WHERE id = 1 RETURNING value") ?? 0
    }
}

/// Upserts seeded places inside a seed transaction with one prepared statement.
struct SQLiteSeedWriter {
    let db: Database
    let revision: Int64
    var binding: PlaceBinding

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
        guard try binding.execute(place, revision: revision, in: db) == 0 else { return nil }
        let stored = try Row.fetchOne(db, sql: "SELECT seed_source, revision FROM place WHERE id = ?", arguments: [place.id])
        if let stored, stored["revision"] == revision {
            return PlacesError.invalid("id", "duplicate id '\(place.id)': the file names it twice")
        }
        return PlacesError(.conflict, "id '\(place.id)' belongs to a place added through the API; seeds do not overwrite it", field: "id")
    }
}
