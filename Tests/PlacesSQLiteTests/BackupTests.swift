import Foundation
import GeoIndex
import PlacesCore
import Synchronization
import Testing

@testable import PlacesSQLite

@Suite("Online backup")
struct BackupTests {
    /// `count` places with ids `prefix-0…`, spread over a small area.
    static func places(_ prefix: String, _ count: Int) -> [Place] {
        (0..<count).map { Fixtures.place("\(prefix)-\($0)", 40 + Double($0 % 100) * 0.01, -3 - Double($0 / 100) * 0.01) }
    }

    @Test func aBackupTakenDuringWritesIsOneCompleteCommittedMoment() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try PlacesDatabase(path: folder.appendingPathComponent("live.sqlite").path)
        try await database.places.seed(Self.places("base", 2_000))
        // A writer adds ten places per transaction before, during and after the backup, until the test stops it: had it
        // stopped by itself (after 1,000 batches, as it did), a test kept waiting long enough on a busy machine would
        // find it done before its backup (a copy as new as the database) or wait for ever for the batches after it.
        let writing = Atomic<Bool>(true)
        let committed = Atomic<Int>(0)
        let writes = Task {
            var batch = 0
            while writing.load(ordering: .relaxed) {
                let places = Self.places("batch\(batch)", 10)
                try await database.places.seed(places)
                batch += 1
                committed.store(batch, ordering: .relaxed)
            }
            return batch
        }
        while committed.load(ordering: .relaxed) < 3 { try await Task.sleep(for: .milliseconds(1)) }
        let copyPath = folder.appendingPathComponent("copy.sqlite").path
        let report = try database.backup(to: copyPath)
        let atBackup = committed.load(ordering: .relaxed)
        while committed.load(ordering: .relaxed) < atBackup + 3 { try await Task.sleep(for: .milliseconds(1)) }
        writing.store(false, ordering: .relaxed)
        let batches = try await writes.value

        let copy = try PlacesDatabase(path: copyPath, readOnly: true)
        let copied = try await copy.places.liveSummaries()
        let live = try await database.places.liveSummaries()
        // The copy holds exactly the transactions committed up to its feed position: every place is written once,
        // so each takes one position (the base seed's 2,000, then ten per batch), nothing half-written.
        #expect(report.places == copied.summaries.count)
        #expect(copied.summaries.count == Int(copied.revision) && (copied.summaries.count - 2_000).isMultiple(of: 10))
        #expect(copied.revision >= 2_030 && copied.revision < live.revision && live.revision == 2_000 + 10 * Int64(batches))
        let liveByID = Dictionary(uniqueKeysWithValues: live.summaries.map { ($0.id, $0) })
        for summary in copied.summaries { #expect(liveByID[summary.id] == summary) }
        // The copy is a working database: search and the other tables came along.
        let hits = try await PlaceService(repository: copy.places, index: PlaceIndex()).search(
            PlaceSearchQuery.parse(q: "place base", lat: nil, lon: nil, radius: nil, page: PageRequest())
        )
        #expect(hits.items.count == PageRequest.defaultLimit)
        // No temporary file is left beside it.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.contains { $0.contains("partial") }, "\(names)")
    }

    @Test func aBackupNeverOverwritesAFile() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try PlacesDatabase(path: folder.appendingPathComponent("live.sqlite").path)
        let existing = try Fixtures.write("keep me", to: "existing.sqlite", in: folder)
        #expect(throws: PlacesError.self) { try database.backup(to: existing) }
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
        #expect(throws: PlacesError.self) { try database.backup(to: folder.appendingPathComponent("no/such/folder.sqlite").path) }
    }
}
