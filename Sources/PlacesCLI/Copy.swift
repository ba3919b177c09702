import ArgumentParser
import Foundation
import PlacesCore
import PlacesPostgres
import PlacesSQLite

extension Places {
    /// `places copy FROM TO`: a whole database moved between engines (a SQLite file and a PostgreSQL URL, either way).
    struct Copy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy a whole database to another, between a SQLite file and a PostgreSQL URL (either way).",
            discussion: """
                FROM and TO are each a SQLite file or a postgres://user:password@host:5432/places URL. FROM is \
                read in one consistent snapshot while it stays in use; TO is written in one transaction, so a \
                failure leaves it as it was. TO must be empty (a new file, or a database nothing was stored in) \
                unless --replace is given, which empties it in that same transaction. Places, people, settings, \
                sessions, favourites, ratings, friends, groups, collections, decisions and notifications are \
                copied; transient state is not (the login throttle's failure counts, the deadline task's \
                lease). TO gets a new generation id and an empty change feed, so instances \
                running on it reload everything (while --replace runs, their reads and writes of TO wait).
                """
        )

        @Argument(help: "The database to copy: a SQLite file or a postgres:// URL.")
        var from: String

        @Argument(help: "The database to write: a SQLite file (created when missing) or a postgres:// URL.")
        var to: String

        @Flag(name: .long, help: "Empty TO first when it holds data (in the same transaction as the copy).")
        var replace = false

        @Flag(name: .long, help: "Print the report as JSON.")
        var json = false

        func run() async throws {
            do {
                let source = try Copy.location(from, field: "from")
                let target = try Copy.location(to, field: "to")
                guard !Copy.same(source, target) else {
                    throw PlacesError.invalid("to", "FROM and TO are the same database")
                }
                if case .file(let path) = source, !FileManager.default.fileExists(atPath: path) {
                    throw PlacesError(.notFound, "no database at \(path)", field: "from")
                }
                let newFile = Copy.newFile(target)
                do {
                    let (sourceEngine, targetEngine) = (try await Engine.open(source), try await Engine.open(target))
                    defer {
                        sourceEngine.close()
                        targetEngine.close()
                    }
                    let report = try await DatabaseCopy.copy(from: sourceEngine.copySource, to: targetEngine.copyTarget, replacing: replace)
                    try show(CopiedDatabase(from: sourceEngine.description, to: targetEngine.description, report: report))
                } catch {
                    // A file this command created holds nothing but the schema: take it away again.
                    if let newFile { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: newFile + suffix) } }
                    throw error
                }
            } catch {
                throw Failure.exit(error)
            }
        }

        /// Prints the report, as a table of rows per table or as JSON.
        private func show(_ copied: CopiedDatabase) throws {
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(copied), as: UTF8.self))
                return
            }
            print("copied \(copied.from) to \(copied.to)")
            let width = copied.tables.map(\.table.count).max() ?? 0
            for count in copied.tables {
                print("  " + count.table.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(count.rows)")
            }
            print("generation \(copied.generation), revision \(copied.revision)")
        }

        /// Where a database argument points; `invalid_input` naming `field` for a URL that does not read.
        static func location(_ argument: String, field: String) throws -> DatabaseLocation {
            try DatabaseLocation(argument: argument, field: field)
        }

        /// The path of a SQLite target that does not exist yet (the copy creates it); nil otherwise.
        static func newFile(_ location: DatabaseLocation) -> String? {
            guard case .file(let path) = location, !FileManager.default.fileExists(atPath: path) else { return nil }
            return path
        }

        /// True when both arguments name one database: the same file, or the same server and database.
        static func same(_ first: DatabaseLocation, _ second: DatabaseLocation) -> Bool {
            switch (first, second) {
            case (.file(let one), .file(let other)):
                let resolved = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
                return resolved(one) == resolved(other)
            case (.postgres(let one), .postgres(let other)):
                return one.host == other.host && one.port == other.port && one.database == other.database
            default:
                return false
            }
        }
    }
}

/// What `places copy` reports: the two databases (without passwords) and what was written.
struct CopiedDatabase: Encodable {
    var from: String
    var to: String
    var tables: [CopyReport.TableCount]
    var generation: String
    var revision: Int64

    init(from: String, to: String, report: CopyReport) {
        self.from = from
        self.to = to
        tables = report.tables
        generation = report.generation
        revision = report.revision
    }
}

extension Engine {
    /// The database as a copy reads it.
    var copySource: any CopySource {
        switch self {
        case .sqlite(let database, _): database
        case .postgres(let database): database
        }
    }

    /// The database as a copy writes it.
    var copyTarget: any CopyTarget {
        switch self {
        case .sqlite(let database, _): database
        case .postgres(let database): database
        }
    }

    /// Lets go of the database's connections.
    func close() {
        if case .postgres(let database) = self { database.close() }
    }
}
