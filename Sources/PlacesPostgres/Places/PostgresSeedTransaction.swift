import Foundation
import Logging
import GeoIndex
import PlacesCore
import PostgresNIO

/// A seed file's transaction in PostgreSQL: one connection, leased for as long as the transaction is open, takes the
/// batches as they come until the importer commits or rolls back.
///
/// Each batch is streamed with COPY into a temporary staging table and written with one `INSERT … ON CONFLICT`; the
/// rows carry the transaction's id as their revision (so a file naming an id twice is noticed), and the feed's trigger
/// records them.
///
/// The file stays one transaction, all of it or nothing, yet it does not hold the change feed back while it runs: it is
/// a late commit (see the `late-commits` migration), announced in the feed once it has committed.
final class PostgresSeedTransaction: SeedTransaction {
    /// What the importer asks of the open transaction.
    private enum Command {
        case upsert(PreparedBatch, CheckedContinuation<[Int: PlacesError], any Error>)
        case added(CheckedContinuation<Int, any Error>)
        case unwritten(prefix: String, box: GeoBox, remove: Bool, now: Date, CheckedContinuation<[String], any Error>)
        case commit
        case rollback
    }

    private struct RolledBack: Error {}

    private let database: PostgresPlacesDatabase
    private let commands: AsyncStream<Command>.Continuation
    private let outcome: Task<Void, any Error>

    init(database: PostgresPlacesDatabase) {
        let (stream, commands) = AsyncStream<Command>.makeStream()
        self.database = database
        self.commands = commands
        outcome = Task {
            do {
                // As long as the importer keeps it open: a seed file takes as long as it takes.
                try await database.write(within: .none) { connection in
                    var writer = try await SeedWriter.start(on: connection, logger: database.logger)
                    try await PostgresSeedTransaction.serve(stream, writer: &writer)
                }
            } catch is RolledBack {
                return
            }
        }
    }

    deinit {
        // An importer that never ended it would hold the connection, and the rows it wrote, forever.
        commands.yield(.rollback)
        commands.finish()
    }

    func upsert(_ places: [Place]) async throws -> [Int: PlacesError] {
        // Prepared here, in the caller, before it waits: an importer that keeps the next batch in flight has it
        // turned into COPY text while the connection still writes the one before.
        let batch = PreparedBatch(places)
        return try await withCheckedThrowingContinuation { continuation in
            if case .terminated = commands.yield(.upsert(batch, continuation)) {
                continuation.resume(throwing: PlacesError(.internalError, "the seed transaction has ended"))
            }
        }
    }

    func addedCount() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            if case .terminated = commands.yield(.added(continuation)) {
                continuation.resume(throwing: PlacesError(.internalError, "the seed transaction has ended"))
            }
        }
    }

    func unwritten(idPrefix: String, within box: GeoBox, remove: Bool, now: Date) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            if case .terminated = commands.yield(.unwritten(prefix: idPrefix, box: box, remove: remove, now: now, continuation)) {
                continuation.resume(throwing: PlacesError(.internalError, "the seed transaction has ended"))
            }
        }
    }

    func commit() async throws {
        commands.yield(.commit)
        commands.finish()
        try await outcome.value
        // At once, so the instances read it at their next wake-up; if this fails (or the process stops first), the
        // next instance to read the feed announces it.
        try? await database.announceLateCommits()
    }

    func rollback() async {
        commands.yield(.rollback)
        commands.finish()
        _ = try? await outcome.value
    }

    /// The open transaction: writes each batch as it comes, until commit (returning, so it commits) or rollback
    /// (throwing, so it rolls back). A batch that fails fails the transaction.
    private static func serve(_ commands: AsyncStream<Command>, writer: inout SeedWriter) async throws {
        for await command in commands {
            switch command {
            case .upsert(let batch, let continuation):
                do {
                    continuation.resume(returning: try await writer.upsert(batch))
                } catch {
                    continuation.resume(throwing: error)
                    throw error
                }
            case .added(let continuation):
                continuation.resume(returning: writer.added)
            case .unwritten(let prefix, let box, let remove, let now, let continuation):
                do {
                    continuation.resume(returning: try await writer.unwritten(idPrefix: prefix, within: box, remove: remove, now: now))
                } catch {
                    continuation.resume(throwing: error)
                    throw error
                }
            case .commit:
                return
            case .rollback:
                throw RolledBack()
            }
        }
        // The importer went away without a word.
        throw RolledBack()
    }
}

/// A batch of places ready for COPY: its text, and the positions that repeat an id of the batch.
private struct PreparedBatch: Sendable {
    let places: [Place]
    /// The later positions of an id the batch names twice, with the first one's: one INSERT cannot write a row twice,
    /// so a repeat waits for its first's verdict.
    let repeats: [Int: Int]
    /// The batch's rows (repeats left out) in COPY's text format.
    let copyText: ByteBuffer

    init(_ places: [Place]) {
        var first: [String: Int] = [:]
        var repeats: [Int: Int] = [:]
        var buffer = ByteBuffer()
        for (position, place) in places.enumerated() {
            if let earlier = first[place.id] {
                repeats[position] = earlier
                continue
            }
            first[place.id] = position
            SeedWriter.copyLine(place, position: position, into: &buffer)
        }
        self.places = places
        self.repeats = repeats
        copyText = buffer
    }
}

/// Writes a seed's batches on its transaction's connection.
private struct SeedWriter {
    let connection: PostgresConnection
    let logger: Logger
    /// What the rows this transaction writes carry as their revision: its transaction id.
    let stamp: Int64
    /// Places written whose id no place held before.
    var added = 0

    /// The columns of the staging table, in the order `copyLine` writes them.
    static let stagedColumns = [
        "position", "id", "kind", "name", "description", "latitude", "longitude", "address", "city", "tags", "cuisine",
        "price_level", "phone", "website", "opening_hours", "time_zone", "seed_source", "created_at", "updated_at",
        "deleted_at",
    ]

    /// Opens the seed in the current transaction: its staging table and its stamp.
    static func start(on connection: PostgresConnection, logger: Logger) async throws -> SeedWriter {
        // A late commit: the feed's horizon leaves a transaction of this name out (before it has an id, so no reader
        // ever waits for it), and the row in `feed_late_commit` has it announced once it commits.
        try await connection.query(
            PostgresQuery(unsafeSQL: "SET LOCAL application_name = '\(PostgresPlacesDatabase.lateCommitName)'"),
            logger: logger
        )
        let stamp =
            try await connection.value(
                "INSERT INTO feed_late_commit (xid) VALUES (pg_current_xact_id()) RETURNING xid::text::bigint",
                as: Int64.self,
                logger: logger
            ) ?? 0
        try await connection.query(
            """
            CREATE TEMPORARY TABLE seed_batch (
                position INTEGER NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL,
                latitude DOUBLE PRECISION NOT NULL, longitude DOUBLE PRECISION NOT NULL, address TEXT, city TEXT, tags TEXT NOT NULL,
                cuisine TEXT, price_level INTEGER, phone TEXT, website TEXT, opening_hours TEXT, time_zone TEXT, seed_source TEXT,
                created_at TEXT NOT NULL, updated_at TEXT NOT NULL, deleted_at TEXT
            ) ON COMMIT DROP
            """,
            logger: logger
        )
        return SeedWriter(connection: connection, logger: logger, stamp: stamp)
    }

    /// Writes the batch's places, answering those refused by their position: `conflict` for a place added through
    /// the API, `invalid_input` for an id this seed wrote already (in this batch or an earlier one).
    mutating func upsert(_ batch: PreparedBatch) async throws -> [Int: PlacesError] {
        let (places, repeats, buffer) = (batch.places, batch.repeats, batch.copyText)
        try await connection.query("TRUNCATE seed_batch", logger: logger)
        try await connection.copyFrom(table: "seed_batch", columns: SeedWriter.stagedColumns, logger: logger) { writer in
            try await writer.write(buffer)
        }
        // Re-seeding an unchanged row keeps its updated_at: only content that differs counts as an update.
        let content = [
            "kind", "name", "description", "latitude", "longitude", "address", "city", "tags", "cuisine", "price_level", "phone",
            "website", "opening_hours", "time_zone", "seed_source", "deleted_at",
        ]
        let unchanged = content.map { "place.\($0) IS NOT DISTINCT FROM excluded.\($0)" }.joined(separator: " AND ")
        let updates = (content + ["revision"]).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        // Refused: a row that is not the seeds' (conflict) or that already carries this seed's stamp (a duplicate). The
        // outer SELECT sees the table as it was before the INSERT, so it tells the two apart.
        let refusedRows = try await connection.rows(
            """
            WITH written AS (
                INSERT INTO place (id, kind, name, description, latitude, longitude, address, city, tags, cuisine, price_level,
                    phone, website, opening_hours, time_zone, seed_source, created_at, updated_at, deleted_at, revision)
                SELECT id, kind, name, description, latitude, longitude, address, city, tags, cuisine, price_level, phone, website,
                    opening_hours, time_zone, seed_source, created_at, updated_at, deleted_at, \(stamp)
                FROM seed_batch ORDER BY position
                ON CONFLICT (id) DO UPDATE SET \(unescaped: updates),
                    updated_at = CASE WHEN \(unescaped: unchanged) THEN place.updated_at ELSE excluded.updated_at END
                WHERE place.seed_source IS NOT NULL AND place.revision <> excluded.revision
                RETURNING id, xmax = 0 AS inserted
            )
            SELECT batch.position, stored.revision = \(stamp) AS duplicate
            FROM seed_batch AS batch JOIN place AS stored ON stored.id = batch.id
            WHERE NOT EXISTS (SELECT 1 FROM written WHERE written.id = batch.id)
            UNION ALL
            -- A row the INSERT wrote new has no deleting transaction (xmax 0); one it updated has this one's.
            SELECT -1 - count(*)::integer, false FROM written WHERE inserted
            """,
            logger: logger
        )
        var refused: [Int: PlacesError] = [:]
        for row in refusedRows {
            let position: Int = try row.get("position")
            // The last row counts the inserted ones, as -1 - count (a position is never negative).
            if position < 0 {
                added += -1 - position
                continue
            }
            let duplicate: Bool = try row.get("duplicate")
            refused[position] = duplicate ? SeedWriter.duplicate(places[position].id) : SeedWriter.notTheSeeds(places[position].id)
        }
        for (position, earlier) in repeats {
            let verdict = refused[earlier]
            refused[position] = verdict?.code == .conflict ? SeedWriter.notTheSeeds(places[position].id) : SeedWriter.duplicate(places[position].id)
        }
        return refused
    }

    /// The seeded places under `idPrefix` inside `box` that this transaction did not write; deleted when `remove`.
    func unwritten(idPrefix: String, within box: GeoBox, remove: Bool, now: Date) async throws -> [String] {
        let upper = IDPrefixRange.upperBound(of: idPrefix)
        let rows = try await connection.rows(
            """
            SELECT id FROM place
            WHERE id >= \(idPrefix) AND id < \(upper) AND seed_source IS NOT NULL AND deleted_at IS NULL AND revision <> \(stamp)
                AND latitude BETWEEN \(box.south) AND \(box.north)
                AND (CASE WHEN \(box.crossesAntimeridian) THEN longitude >= \(box.west) OR longitude <= \(box.east)
                    ELSE longitude BETWEEN \(box.west) AND \(box.east) END)
            ORDER BY id
            """,
            logger: logger
        )
        let ids = try rows.map { row in try row.get("id", as: String.self) }
        if remove, !ids.isEmpty {
            let time = Timestamp.text(now)
            try await connection.query(
                """
                UPDATE place SET deleted_at = \(time), updated_at = \(time), revision = \(stamp)
                WHERE id = ANY(\(ids))
                """,
                logger: logger
            )
        }
        return ids
    }

    static func duplicate(_ id: String) -> PlacesError {
        PlacesError.invalid("id", "duplicate id '\(id)': the file names it twice")
    }

    static func notTheSeeds(_ id: String) -> PlacesError {
        PlacesError(.conflict, "id '\(id)' belongs to a place added through the API; seeds do not overwrite it", field: "id")
    }

    /// One line of COPY's text format for the place: tab-separated fields, `\N` for NULL, the format's escapes.
    static func copyLine(_ place: Place, position: Int, into buffer: inout ByteBuffer) {
        var first = true
        func field(_ value: String?) {
            if !first { buffer.writeInteger(UInt8(ascii: "\t")) }
            first = false
            guard let value else {
                buffer.writeStaticString("\\N")
                return
            }
            CopyText.writeEscaped(value, into: &buffer)
        }
        field(String(position))
        field(place.id)
        field(place.kind.rawValue)
        field(place.name)
        field(place.description)
        field(String(place.coordinate.latitude))
        field(String(place.coordinate.longitude))
        field(place.address)
        field(place.city)
        field(StoredText.encodeTags(place.tags))
        field(place.cuisine)
        field(place.priceLevel.map(String.init))
        field(place.phone)
        field(place.website)
        field(place.openingHours.map(StoredText.encodeHours))
        field(place.timeZone)
        field(place.seedSource)
        field(Timestamp.text(place.createdAt))
        field(Timestamp.text(place.updatedAt))
        field(place.deletedAt.map(Timestamp.text))
        buffer.writeInteger(UInt8(ascii: "\n"))
    }
}
