import ArgumentParser
import Foundation
import Logging
import PlacesCore

extension Places {
    /// `places seed PATH...`: load seed files (JSON, CSV, GeoJSON, OpenStreetMap) or folders of them into the database.
    struct Seed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load seed files or folders (.json, .csv, .geojson; OpenStreetMap's .osm.pbf, .osm, .osm.bz2, .geojsonseq) into the database.",
            discussion: """
                Each file loads in one transaction and is idempotent: places are upserted by id, and a row \
                without an id gets a stable id from its name and coordinate. By default one invalid row \
                aborts its file (nothing of it is written) and names the file, line and reason.

                An OpenStreetMap extract is read through osmium-tool (apt-get install osmium-tool): its named \
                restaurants, cafés and gems become places with ids like osm:n123 and osm:w456, so a newer \
                extract updates them in place. Features that are no place are skipped and counted; places of \
                earlier imports that the extract no longer holds are reported, and removed with --prune.
                """
        )

        @Argument(help: "Seed files or folders.")
        var paths: [String]

        @Flag(name: .long, help: "Load the valid rows and report each invalid one, instead of aborting the file.")
        var skipInvalid = false

        @Flag(name: .long, help: "Remove the places of earlier OpenStreetMap imports, inside the extract's bounds, that it no longer holds.")
        var prune = false

        @Option(name: .long, help: "The IANA time zone (Europe/Berlin) of places whose file names none: their opening hours are in it.")
        var timeZone: String?

        @OptionGroup var databaseOptions: DatabaseOptions

        func validate() throws {
            if let timeZone, !TimeZoneNames.isKnown(timeZone) {
                throw ValidationError("unknown IANA time zone '\(timeZone)' (like Europe/Berlin or America/New_York)")
            }
        }

        func run() async throws {
            do {
                let places = try await Composition.open(databaseOptions).engine.repositories.places
                let outcome = try await SeedRun.load(
                    paths: paths,
                    into: places,
                    skipInvalid: skipInvalid,
                    prune: prune,
                    timeZone: timeZone,
                    log: { print($0) },
                    warn: printError
                )
                if let failure = outcome.failure {
                    throw PlacesError(failure, "\(outcome.failedFiles) file(s) not loaded")
                }
            } catch {
                throw Failure.exit(error)
            }
        }
    }
}

/// Loads seed paths file by file, reporting as it goes; shared by `places seed` and the first start of `serve`.
enum SeedRun {
    struct Outcome {
        var loaded = 0
        var skipped = 0
        var failedFiles = 0
        /// The code the run fails with: `invalid_input` when only files were bad, another code (exit 1) when the
        /// store itself failed.
        var failure: PlacesError.Code?
    }

    static func load(
        paths: [String],
        into places: any PlaceRepository,
        skipInvalid: Bool,
        prune: Bool = false,
        timeZone: String? = nil,
        log: @escaping @Sendable (String) -> Void,
        warn: @escaping @Sendable (String) -> Void
    ) async throws -> Outcome {
        let importer = SeedImporter(repository: places, now: { Date() })
        var outcome = Outcome()
        for file in try SeedFileReader.files(in: paths) {
            let started = ContinuousClock.now
            do {
                let report = try await importer.load(file: file, skipInvalid: skipInvalid, prune: prune, timeZone: timeZone) { file, rows in
                    warn("\(file): \(rows.formatted()) rows read…")
                }
                for skipped in report.skipped { warn("skipped \(skipped)") }
                let seconds = (ContinuousClock.now - started).formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 2)))
                var line = "loaded \(report.loaded) place\(report.loaded == 1 ? "" : "s") from \(file) in \(seconds)"
                if !report.skipped.isEmpty { line += " (skipped \(report.skipped.count) invalid)" }
                log(line)
                if let found = report.openStreetMap { describe(found, of: report, file: file, log: log, warn: warn) }
                outcome.loaded += report.loaded
                outcome.skipped += report.skipped.count
            } catch let error as PlacesError {
                warn("\(error.message); nothing of \(file) was written")
                outcome.failedFiles += 1
                if outcome.failure == nil || outcome.failure == .invalidInput { outcome.failure = error.code }
            }
        }
        return outcome
    }

    /// What an OpenStreetMap file held beyond its places, a line a fact (numbers bare, for scripts to read).
    static func describe(
        _ found: OpenStreetMapReport,
        of report: SeedFileReport,
        file: String,
        log: @Sendable (String) -> Void,
        warn: @Sendable (String) -> Void
    ) {
        log("\(file): read \(found.features) features: \(report.added) new, \(report.updated) updated, \(found.skippedCount) skipped")
        for reason in found.skipped.keys.sorted() {
            log("\(file): skipped \(found.skipped[reason] ?? 0) \(reason.rawValue)")
        }
        for example in found.examples { warn("\(file): skipped as invalid: \(example)") }
        if found.hoursNotUnderstood > 0 {
            log("\(file): opening hours not understood for \(found.hoursNotUnderstood) places (kept without hours)")
        }
        for field in found.droppedValues.keys.sorted() {
            log("\(file): left out \(found.droppedValues[field] ?? 0) \(field) values the place rules refuse")
        }
        guard !found.gone.isEmpty else { return }
        let shown = found.gone.prefix(10).joined(separator: ", ") + (found.gone.count > 10 ? ", …" : "")
        if found.pruned {
            log("\(file): removed \(found.gone.count) places gone from OpenStreetMap within the extract's bounds (\(shown))")
        } else {
            log("\(file): \(found.gone.count) places gone from OpenStreetMap within the extract's bounds; --prune removes them (\(shown))")
        }
    }

    /// Loads `folder` into a database that never held a place (first start); nil when there was nothing to do.
    static func seedIfEmpty(_ places: any PlaceRepository, from folder: String, logger: Logger) async throws -> Outcome? {
        guard try await places.isEmpty() else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            logger.warning("the database is empty and there is no seed folder at \(folder); starting empty")
            return nil
        }
        logger.info("empty database: loading seeds", metadata: ["folder": "\(folder)"])
        let outcome = try await load(
            paths: [folder],
            into: places,
            skipInvalid: false,
            log: { logger.info("\($0)") },
            warn: { logger.error("\($0)") }
        )
        // Starting half-seeded would never be mended: the next start sees a database that is no longer empty.
        if let failure = outcome.failure {
            throw PlacesError(
                failure,
                "\(outcome.failedFiles) seed file(s) in \(folder) did not load (see above); fix them and run `places seed \(folder)`"
            )
        }
        return outcome
    }
}
