import Foundation
import Logging
import Metrics
import Synchronization
import PlacesCore
import PostgresNIO

extension PostgresPlacesDatabase {
    /// Connects once, directly, to learn why the database gives no connection: postgres-nio's pool only logs why its
    /// attempts fail and keeps waiting, so an operator would otherwise read "no connection in time" for a wrong
    /// password, a missing database or a server that offers no TLS. Nil when the connection works; otherwise an
    /// `unavailable` error saying what is wrong and how to fix it, for the operator (it names the database's address,
    /// never the password).
    static func diagnose(_ location: PostgresLocation, schema: String?, within limit: Duration, logger: Logger) async -> PlacesError? {
        do {
            var configuration = try location.connectionConfiguration
            configuration.options.connectTimeout = TimeAmount.nanoseconds(Int64(limit.components.seconds) * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000)
            configuration.options.additionalStartupParameters = startupParameters(schema: schema)
            let connection = try await withTimeLimit(limit) { [configuration] in
                try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            } late: { connection in
                try? await connection.close()
            }
            guard let connection else {
                return unavailable("the database at \(location) did not answer within \(limit) (is the server stopped, or the network dropping packets?)", cause: .timeout)
            }
            try? await connection.close()
            return nil
        } catch let error as PSQLError {
            return diagnosis(of: error, at: location)
        } catch {
            return unavailable("cannot connect to the database at \(location): \(error)", cause: .unreachable)
        }
    }

    /// What a failure to connect to `location` means, in words an operator can act on.
    static func diagnosis(of error: PSQLError, at location: PostgresLocation) -> PlacesError {
        let cause: PlacesError.Cause
        let message: String
        switch (error.code, error.serverInfo?[.sqlState]) {
        case (_, "28P01"?), (_, "28000"?):
            cause = .authenticationFailed
            message =
                "the database at \(location) refused user '\(location.username)': authentication failed (check the password in the URL or PGPASSWORD, and pg_hba.conf)"
        case (_, "3D000"?):
            cause = .noSuchDatabase
            message = "the database '\(location.database)' does not exist at \(location); create it first (createdb \(location.database))"
        case (.sslUnsupported, _):
            cause = .tlsUnavailable
            message = "the database at \(location) does not offer TLS, and sslmode=\(location.sslMode.rawValue) requires it (use sslmode=prefer or disable, or enable ssl on the server)"
        case (.authMechanismRequiresPassword, _):
            cause = .authenticationFailed
            message = "the database at \(location) asks user '\(location.username)' for a password, and none was given (put it in the URL or PGPASSWORD)"
        case (_, let state?):
            cause = .databaseRefused
            message = "the database at \(location) refused the connection (\(state): \(error.serverInfo?[.message] ?? ""))"
        default:
            cause = .unreachable
            message = "cannot connect to the database at \(location): \(connectionReason(error))"
        }
        return unavailable(message, cause: cause)
    }

    /// Why a connection failed before the server answered, in plain words.
    private static func connectionReason(_ error: PSQLError) -> String {
        let underlying = error.underlying.map { "\($0)" } ?? "\(error.code)"
        if let io = error.underlying as? IOError, io.errnoCode == ECONNREFUSED { return "nothing listens there (connection refused)" }
        if underlying.contains("connectTimeout") || underlying.contains("timeout") { return "it did not answer in time" }
        if underlying.contains("connectionRefused") || underlying.contains("Connection refused") {
            return "nothing listens there (connection refused)"
        }
        if let error = error.underlying as? NIOConnectionError {
            if error.connectionErrors.isEmpty, error.dnsAAAAError != nil || error.dnsAError != nil { return "its host name does not resolve" }
            if let first = error.connectionErrors.first { return "\(first.error)" }
        }
        return underlying
    }

    /// Learns, logs and counts why the pool gave no connection in time, at most once every few seconds however many
    /// requests wait: the pool itself only says that it waited.
    func noConnection(waited: Duration) {
        guard diagnosing.withLock({ last in
            let now = ContinuousClock.now
            if let last, now - last < .seconds(5) { return false }
            last = now
            return true
        })
        else { return }
        let (location, schema, logger) = (location, schema, logger)
        Task {
            let cause = await PostgresPlacesDatabase.diagnose(location, schema: schema, within: .seconds(2), logger: logger)
            logger.warning(
                "the database gave no connection in time",
                metadata: ["database": "\(location)", "waited": "\(waited)", "cause": "\(cause?.message ?? "a direct connection works: the pool is busy")"]
            )
        }
    }
}

/// The connection pool's gauges, measured around every access (the pool's own delegate is internal to postgres-nio).
struct PoolGauges: Sendable {
    /// Connections running an access now (the change feed's LISTEN connection is not counted).
    let inUse = Meter(label: "places_database_connections_in_use")
    /// How long accesses waited for a connection.
    let connectionWait = Metrics.Timer(label: "places_database_connection_wait_seconds")
}

extension Metrics.Timer {
    /// Records the time since `start`.
    func recordInterval(since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
}
