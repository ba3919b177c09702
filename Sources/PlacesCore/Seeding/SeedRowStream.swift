import Foundation

/// The validated rows of one seed file, read and checked on a thread of their own while the caller writes the rows
/// before them: on two cores, parsing and validation overlap the database's inserts instead of adding to them.
///
/// `@unchecked Sendable` is sound because every mutable property is read and written only while `condition` is
/// locked, and the producer thread touches nothing else of the stream.
final class SeedRowStream: @unchecked Sendable {
    /// One row of the file, in file order.
    enum Row {
        /// A valid place and the line it starts on.
        case place(Place, line: Int)
        /// A row that is not a valid place.
        case invalid(SeedRowError)
    }

    /// Rows handed over at a time: large enough that locking is rare, small enough to start writing at once.
    static let batchSize = 2_048
    /// Batches read ahead of the writer at most, so a huge file never sits in memory twice.
    static let readAhead = 8

    private struct Cancelled: Error {}

    private let condition = NSCondition()
    private var batches: [[Row]] = []
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    private var producerDone = false
    private var waiting: CheckedContinuation<[Row]?, any Error>?
    private var finalReport = OpenStreetMapReport()

    /// Starts reading `path` on a new thread, stamping places with `stamp` and `source`; a place whose row names no
    /// time zone gets `timeZone`.
    init(
        path: String,
        stamp: Date,
        source: String,
        timeZone: String? = nil,
        progress: (@Sendable (_ file: String, _ rows: Int) -> Void)?
    ) {
        let thread = Thread { [self] in
            produce(path: path, stamp: stamp, source: source, timeZone: timeZone, progress: progress)
        }
        thread.name = "places.seed-reader"
        thread.start()
    }

    /// The next batch of rows in file order, nil after the last; rethrows a file-level error of the reader. The caller
    /// awaits the reader without holding a thread.
    func next() async throws -> [Row]? {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[Row]?, any Error>) in
            condition.lock()
            if batches.isEmpty && !finished {
                waiting = continuation
                condition.unlock()
                return
            }
            let outcome = takeNext()
            condition.unlock()
            continuation.resume(with: outcome)
        }
    }

    /// What the reader counted of an OpenStreetMap file's features; complete once `next` has answered nil.
    var report: OpenStreetMapReport {
        condition.lock()
        defer { condition.unlock() }
        return finalReport
    }

    /// The first batch waiting, or the end of the file; `condition` is locked.
    private func takeNext() -> Result<[Row]?, any Error> {
        if !batches.isEmpty {
            let batch = batches.removeFirst()
            condition.broadcast()
            return .success(batch)
        }
        if let failure { return .failure(failure) }
        return .success(nil)
    }

    /// Hands what is ready to a caller waiting in `next`; `condition` is locked, and the caller resumes it after
    /// unlocking.
    private func wakeWaiting() -> (CheckedContinuation<[Row]?, any Error>, Result<[Row]?, any Error>)? {
        guard let continuation = waiting, !batches.isEmpty || finished else { return nil }
        waiting = nil
        return (continuation, takeNext())
    }

    /// Stops the reader (if it still runs) and waits until its thread has let go of the file.
    func finish() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while !producerDone { condition.wait() }
        condition.unlock()
    }

    private func produce(path: String, stamp: Date, source: String, timeZone: String?, progress: (@Sendable (String, Int) -> Void)?) {
        var batch: [Row] = []
        batch.reserveCapacity(SeedRowStream.batchSize)
        var rows = 0
        var outcome: (any Error)?
        var report = OpenStreetMapReport()
        // What the place's rules refused, kept apart from what the reader counts while it reads.
        var refused = OpenStreetMapReport()
        do {
            try SeedFileReader.read(path: path, report: &report) { result in
                rows += 1
                if rows % SeedImporter.progressInterval == 0 { progress?(path, rows) }
                switch result {
                case .success(var record):
                    if let timeZone, !record.draft.has("timezone") { record.draft = record.draft.setting("timezone", to: .text(timeZone)) }
                    do {
                        batch.append(.place(try validated(record, stamp: stamp, source: source, report: &refused), line: record.line))
                    } catch let error as PlacesError {
                        if record.forgiving {
                            refused.skip(.invalid, because: "\(record.draft.text("id") ?? "line \(record.line)"): \(error.message)")
                        } else {
                            batch.append(.invalid(SeedRowError(file: path, line: record.line, reason: error.message, field: error.field)))
                        }
                    }
                case .failure(let rowError):
                    batch.append(.invalid(rowError))
                }
                if batch.count == SeedRowStream.batchSize {
                    try send(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { try send(batch) }
        } catch is Cancelled {
            outcome = nil
        } catch {
            outcome = error
        }
        condition.lock()
        finished = true
        failure = outcome
        report.merge(refusals: refused)
        finalReport = report
        producerDone = true
        condition.broadcast()
        let woken = wakeWaiting()
        condition.unlock()
        if let (continuation, result) = woken { continuation.resume(with: result) }
    }

    /// The record's place; a forgiving record's optional values that the rules refuse are left out (and counted) until
    /// what remains is a place, or a required field is at fault.
    private func validated(_ record: SeedRecord, stamp: Date, source: String, report: inout OpenStreetMapReport) throws(PlacesError) -> Place {
        var draft = record.draft
        while true {
            do {
                return try draft.validated(now: stamp, seedSource: source)
            } catch {
                guard record.forgiving, let field = error.field, !SeedRowStream.requiredFields.contains(field),
                    draft.has(PlaceDraft.normalise(field))
                else { throw error }
                draft = draft.removing(PlaceDraft.normalise(field))
                report.droppedValues[field, default: 0] += 1
            }
        }
    }

    /// The fields without which a record is no place (and whose fault skips it).
    private static let requiredFields: Set<String> = ["id", "name", "lat", "lon", "kind"]

    private func send(_ batch: [Row]) throws {
        condition.lock()
        while batches.count >= SeedRowStream.readAhead && !cancelled { condition.wait() }
        if cancelled {
            condition.unlock()
            throw Cancelled()
        }
        batches.append(batch)
        condition.broadcast()
        let woken = wakeWaiting()
        condition.unlock()
        if let (continuation, result) = woken { continuation.resume(with: result) }
    }
}
