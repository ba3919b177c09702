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
    public func load(
        file path: String,
        skipInvalid: Bool = false,
        progress: (@Sendable (_ file: String, _ rows: Int) -> Void)? = nil
    ) async throws -> SeedFileReport {
        let source = (path as NSString).lastPathComponent
        let stamp = now()
        return try await repository.withSeedTransaction { writer in
            let rows = SeedRowStream(path: path, stamp: stamp, source: source, progress: progress)
            defer { rows.finish() }
            var report = SeedFileReport(file: path)
            while let batch = try rows.next() {
                for row in batch {
                    do {
                        switch row {
                        case .place(let place, let line):
                            do {
                                try writer.upsert(place)
                            } catch let error as PlacesError {
                                throw SeedRowError(file: path, line: line, reason: error.message, field: error.field)
                            }
                            report.loaded += 1
                        case .invalid(let rowError):
                            throw rowError
                        }
                    } catch let rowError as SeedRowError {
                        guard skipInvalid else {
                            throw PlacesError(.invalidInput, rowError.description, field: rowError.field)
                        }
                        report.skipped.append(rowError)
                    }
                }
            }
            return report
        }
    }
}

/// What loading one seed file did.
public struct SeedFileReport: Sendable, Hashable {
    /// The file's path as given.
    public var file: String
    /// Rows written.
    public var loaded = 0
    /// Rows skipped (only with `skipInvalid`), each with its line and reason.
    public var skipped: [SeedRowError] = []

    /// Makes an empty report for a file.
    public init(file: String) { self.file = file }
}
