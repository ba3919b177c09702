import ArgumentParser
import Foundation
import PlacesCore
import PlacesSQLite

extension Places {
    /// `places backup FILE`: a consistent copy of the database, taken while the server runs.
    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy the database to a new file while it is in use (SQLite's online backup).",
            discussion: """
                The copy is one committed moment of the database, checked with PRAGMA integrity_check, and \
                appears under FILE only when complete. FILE must not exist. To restore, stop the server and \
                start it (or any command) with --database FILE, or move FILE in place of the database.
                """
        )

        @Argument(help: "The new backup file.")
        var file: String

        @OptionGroup var databaseOptions: DatabaseOptions

        @Flag(name: .long, help: "Print the report as JSON.")
        var json = false

        func run() async throws {
            do {
                guard let path = try databaseOptions.existingFile("give the SQLite file to back up with --database") else {
                    throw PlacesError.invalid(
                        "database",
                        "places backup copies a SQLite file; on PostgreSQL use pg_dump, e.g. pg_dump --format=custom --file=places.dump --dbname=URL"
                    )
                }
                let report = try PlacesDatabase(path: path).backup(to: file)
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                    print(String(decoding: try encoder.encode(report), as: UTF8.self))
                } else {
                    print("backed up \(report.places) places (\(report.bytes) bytes) to \(report.file)")
                }
            } catch {
                throw Failure.exit(error)
            }
        }
    }
}
