import Foundation

/// Loads seed files into the store: each file in one transaction, validated row by row.
///
/// By default one invalid row aborts its file (nothing of it is written) with the file, line and reason;
/// with `skipInvalid` the valid rows load and each skipped row is reported.
public struct SeedImporter: Sendable {
    /// How often (in rows) progress is reported for a large file.
    public static let progressInterval = 100_000

    private let repository: any PlaceRepository
    private let now: @Sendable () -> Date

    /// Makes an importer writing to `repository`, stamping times from `now`.
    public init(repository: any PlaceRepository, now: @escaping @Sendable () -> Date) {
        self.repository = repository
        self.now = now
    }

    /// Loads one file; throws `invalid_input` naming file, line and reason when a row is invalid and not skipped.
    ///
    /// An OpenStreetMap file never stops for one feature: those that are no place are skipped and counted in the
    /// report's `openStreetMap`, which also lists the places of earlier OpenStreetMap imports inside the file's extent
    /// that it no longer holds, and removes them (in the same transaction) with `prune`.
    ///
    /// - Parameters:
    ///   - timeZone: the IANA zone of places whose rows name none (their opening hours are in it).
    public func load(
        file path: String,
        skipInvalid: Bool = false,
        prune: Bool = false,
        timeZone: String? = nil,
        progress: (@Sendable (_ file: String, _ rows: Int) -> Void)? = nil
    ) async throws -> SeedFileReport {
        let source = (path as NSString).lastPathComponent
        let stamp = now()
        let openStreetMap = SeedFormat(path: path)?.isOpenStreetMap == true
        let rows = SeedRowStream(path: path, stamp: stamp, source: source, timeZone: timeZone, progress: progress)
        defer { rows.finish() }
        let transaction = try await repository.beginSeed()
        var inFlight: SentBatch?
        do {
            var report = SeedFileReport(file: path)
            if openStreetMap { report.openStreetMap = OpenStreetMapReport() }
            while let batch = try await rows.next() {
                // The valid rows of the batch go to the database together; each refusal comes back against its row.
                var places: [Place] = []
                var lines: [Int] = []
                var invalid: [(line: Int, error: SeedRowError)] = []
                for row in batch {
                    switch row {
                    case .place(let place, let line):
                        places.append(place)
                        lines.append(line)
                    case .invalid(let rowError):
                        invalid.append((rowError.line, rowError))
                    }
                }
                // Handed over at once (an immediate task runs until it waits), so batches reach the transaction in
                // file order; the one before is settled while this one is on its way, which keeps the engine busy.
                let sent = SentBatch(count: places.count, lines: lines, invalid: invalid, refused: Task.immediate { [places] in
                    try await transaction.upsert(places)
                })
                if let previous = inFlight { try await settle(previous, into: &report, file: path, skipInvalid: skipInvalid) }
                inFlight = sent
            }
            if let last = inFlight { try await settle(last, into: &report, file: path, skipInvalid: skipInvalid) }
            inFlight = nil
            if openStreetMap {
                var found = rows.report
                found.merge(refusals: report.openStreetMap ?? OpenStreetMapReport())
                if let extent = found.extent {
                    found.gone = try await transaction.unwritten(idPrefix: OSMPlaceTags.idPrefix, within: extent, remove: prune, now: stamp)
                    found.pruned = prune
                }
                report.openStreetMap = found
            }
            report.added = try await transaction.addedCount()
            try await transaction.commit()
            return report
        } catch {
            await transaction.rollback()
            _ = try? await inFlight?.refused.value
            throw error
        }
    }

    /// A batch handed to the transaction: what the importer needs to report its refusals, and the refusals to come.
    private struct SentBatch {
        let count: Int
        let lines: [Int]
        let invalid: [(line: Int, error: SeedRowError)]
        let refused: Task<[Int: PlacesError], any Error>
    }

    /// Waits for the batch's refusals and reports them with its invalid rows, in file order; the first one aborts the
    /// file unless `skipInvalid`.
    private func settle(_ batch: SentBatch, into report: inout SeedFileReport, file path: String, skipInvalid: Bool) async throws {
        let refused = try await batch.refused.value
        report.loaded += batch.count - refused.count
        let refusals = refused.map { index, error in
            (line: batch.lines[index], error: SeedRowError(file: path, line: batch.lines[index], reason: error.message, field: error.field))
        }
        // Reported in file order, so the first refusal is the one that aborts the file.
        for (_, rowError) in (batch.invalid + refusals).sorted(by: { $0.line < $1.line }) {
            // OpenStreetMap's features are nobody's here to mend: one refused (its id taken by a place added through
            // the API, or named twice) is skipped and counted.
            if report.openStreetMap != nil {
                report.openStreetMap?.skip(.invalid, because: rowError.reason)
                continue
            }
            guard skipInvalid else { throw PlacesError(.invalidInput, rowError.description, field: rowError.field) }
            report.skipped.append(rowError)
        }
    }
}

/// What loading one seed file did.
public struct SeedFileReport: Sendable, Hashable {
    /// The file's path as given.
    public var file: String
    /// Rows written.
    public var loaded = 0
    /// Of the rows written, those whose id no place held before (the others brought a place up to the file).
    public var added = 0
    /// Of the rows written, those that brought a stored place up to the file (changed or not).
    public var updated: Int { loaded - added }
    /// What an OpenStreetMap file held beyond its places; nil for other files.
    public var openStreetMap: OpenStreetMapReport?
    /// Rows skipped (only with `skipInvalid`), each with its line and reason.
    public var skipped: [SeedRowError] = []
}
