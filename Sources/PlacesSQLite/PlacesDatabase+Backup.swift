import Foundation
import GRDB
import PlacesCore

/// What a backup wrote.
public struct BackupReport: Sendable, Hashable, Encodable {
    /// The backup file.
    public var file: String
    /// Places in the copy, deleted ones included.
    public var places: Int
    /// The copy's size in bytes.
    public var bytes: Int
}

extension PlacesDatabase {
    /// Copies the whole database to a new file at `path` with SQLite's online backup API, while others keep
    /// reading and writing it.
    ///
    /// The pages are copied in one step inside one read transaction, so the copy is the database as one
    /// committed moment saw it (WAL readers do not block writers). The copy is written beside `path` under a
    /// temporary name, checked with `PRAGMA integrity_check`, made durable and only then renamed into place:
    /// `path` is either absent or a complete, checked backup. An existing `path` is never overwritten.
    public func backup(to path: String) throws -> BackupReport {
        let files = FileManager.default
        guard !files.fileExists(atPath: path) else {
            throw PlacesError(.conflict, "'\(path)' already exists; choose a new file for the backup", field: "file")
        }
        let url = URL(fileURLWithPath: path)
        let partial = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).partial-\(UInt32.random(in: .min ... .max))").path
        let leftovers = [partial, partial + "-wal", partial + "-shm", partial + "-journal"]
        defer { for file in leftovers { try? files.removeItem(atPath: file) } }
        do {
            let copy = try DatabaseQueue(path: partial)
            try writer.backup(to: copy)
            let (places, check) = try copy.writeWithoutTransaction { db in
                // The copy keeps the source's WAL mode; fold its log into the file so one file is the backup.
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                let places = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM place") ?? 0
                let check = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                return (places, check)
            }
            try copy.close()
            guard check == ["ok"] else {
                throw PlacesError(.internalError, "the backup failed its integrity check: \(check.prefix(3).joined(separator: "; "))")
            }
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: partial))
            try handle.synchronize()
            try handle.close()
            // link(2) instead of rename(2): it fails rather than replace a file that appeared meanwhile.
            guard link(partial, path) == 0 else {
                throw PlacesError(.unavailable, "cannot write '\(path)': \(String(cString: strerror(errno)))")
            }
            let size = (try? files.attributesOfItem(atPath: path))?[.size] as? Int
            return BackupReport(file: path, places: places, bytes: size ?? 0)
        } catch let error as PlacesError {
            throw error
        } catch {
            throw PlacesError(.unavailable, "cannot back up to '\(path)': \(PlacesDatabase.reason(error))")
        }
    }
}
