import Foundation
import GRDB
import PlacesCore

/// Leases in SQLite: a row per lease, taken or renewed by one conditional upsert. A lease adds nothing to the change
/// feed, so its writes ring no doorbell.
public struct SQLiteLeaseRepository: LeaseRepository {
    let database: PlacesDatabase

    public func acquire(_ name: String, holder: String, now: Date, until expiresAt: Date) async throws -> Bool {
        try await database.write(ringing: false) { db in
            try db.execute(
                sql: """
                    INSERT INTO lease (name, holder, expires_at) VALUES (?, ?, ?)
                    ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
                    WHERE lease.holder = excluded.holder OR lease.expires_at <= ?
                    """,
                arguments: [name, holder, Timestamp.text(expiresAt), Timestamp.text(now)]
            )
            return db.changesCount > 0
        }
    }

    public func release(_ name: String, holder: String) async throws {
        try await database.write(ringing: false) { db in
            try db.execute(sql: "DELETE FROM lease WHERE name = ? AND holder = ?", arguments: [name, holder])
        }
    }

    public func holder(of name: String, now: Date) async throws -> String? {
        try await database.readStatement { db in
            try String.fetchOne(db, sql: "SELECT holder FROM lease WHERE name = ? AND expires_at > ?", arguments: [name, Timestamp.text(now)])
        }
    }
}

extension PlacesDatabase {
    /// The leases in this database.
    public var leases: SQLiteLeaseRepository { SQLiteLeaseRepository(database: self) }
}
