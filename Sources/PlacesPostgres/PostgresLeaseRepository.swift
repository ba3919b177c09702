import Foundation
import PlacesCore
import PostgresNIO

/// Leases in PostgreSQL: a row per lease, taken or renewed by one conditional upsert. Two instances that try at the
/// same moment queue on the row, and the second sees the first's take, so one of them gets it. A lease adds nothing to
/// the change feed, so its writes ring no doorbell (`quietChange`).
public struct PostgresLeaseRepository: LeaseRepository {
    let database: PostgresPlacesDatabase

    public func acquire(_ name: String, holder: String, now: Date, until expiresAt: Date) async throws -> Bool {
        try await database.quietChange { connection in
            let taken = try await connection.execute(
                """
                INSERT INTO lease (name, holder, expires_at) VALUES (\(name), \(holder), \(Timestamp.text(expiresAt)))
                ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
                WHERE lease.holder = excluded.holder OR lease.expires_at <= \(Timestamp.text(now))
                """,
                logger: database.logger
            )
            return taken > 0
        }
    }

    public func release(_ name: String, holder: String) async throws {
        try await database.quietChange { connection in
            _ = try await connection.execute("DELETE FROM lease WHERE name = \(name) AND holder = \(holder)", logger: database.logger)
        }
    }

    public func holder(of name: String, now: Date) async throws -> String? {
        try await database.read { connection in
            try await connection.value(
                "SELECT holder FROM lease WHERE name = \(name) AND expires_at > \(Timestamp.text(now))",
                as: String.self,
                logger: database.logger
            )
        }
    }
}

extension PostgresPlacesDatabase {
    /// The leases in this database.
    public var leases: PostgresLeaseRepository { PostgresLeaseRepository(database: self) }
}
