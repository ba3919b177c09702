import Foundation
import Logging
import PlacesCore
import PostgresNIO

extension PostgresConnection {
    /// Every row `query` answers, each ready to be read by column name. The rows are collected on the connection's
    /// event loop and handed over at once: the caller waits for one answer, where reading the rows one by one as an
    /// async sequence would wait for each part of it in turn (and, on a busy instance, behind every other task).
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRandomAccessRow] {
        let result: EventLoopFuture<PostgresQueryResult> = self.query(query, logger: logger)
        return try await result.get().rows.map { $0.makeRandomAccess() }
    }

    /// The first row `query` answers, nil when none.
    func row(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRandomAccessRow? {
        try await rows(query, logger: logger).first
    }

    /// The single value of the first row `query` answers, nil when no row.
    func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type = T.self, logger: Logger) async throws -> T? {
        let result: EventLoopFuture<PostgresQueryResult> = self.query(query, logger: logger)
        return try await result.get().rows.first?.decode(T.self)
    }

    /// Runs `query` and answers how many rows it changed (its command tag's count).
    @discardableResult
    func execute(_ query: PostgresQuery, logger: Logger) async throws -> Int {
        let result: EventLoopFuture<PostgresQueryResult> = self.query(query, logger: logger)
        return try await result.get().metadata.rows ?? 0
    }
}

extension PostgresPlacesDatabase {
    /// The number `query` (a `SELECT count(…)`) answers, read outside a transaction.
    func count(_ query: PostgresQuery) async throws -> Int {
        try await read { connection in try await connection.value(query, as: Int.self, logger: self.logger) ?? 0 }
    }
}

extension PostgresRandomAccessRow {
    /// The column's value; an optional type reads NULL as nil.
    func get<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        try self[column].decode(T.self)
    }

    /// The time a NOT NULL text column holds; the epoch when the text does not parse (this engine writes none such).
    func date(_ column: String) throws -> Date {
        Timestamp.date(try get(column, as: String.self)) ?? Date(timeIntervalSince1970: 0)
    }

    /// The time a nullable text column holds.
    func optionalDate(_ column: String) throws -> Date? {
        try get(column, as: String?.self).flatMap(Timestamp.date)
    }
}
