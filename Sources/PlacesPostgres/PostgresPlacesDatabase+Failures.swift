import Foundation
import Logging
import PlacesCore
import PostgresNIO

// The PostgreSQL failures a caller may see, in words of our own: the database's own words and address go to the log.

extension PostgresPlacesDatabase {
    /// What the caller of an access is told of a database failure, the details logged for the operator.
    func failure(_ error: PSQLError, committing: Bool) -> PlacesError {
        let failure = PostgresPlacesDatabase.mapped(error)
        // A server error answers the statement (a COMMIT refused is rolled back); any other failure while committing
        // lost the answer, so nobody knows whether the change was made.
        let lost = committing && error.serverInfo?[.sqlState] == nil
        let answer = lost ? PlacesError.outcomeUnknown : failure
        switch answer.code {
        case .conflict: break
        case .internalError:
            logger.error("database failure", metadata: ["database": "\(location)", "error": "\(PostgresPlacesDatabase.detail(error))"])
        default:
            logger.warning(
                lost ? "the database's answer to a change was lost; its outcome is unknown" : "the database cannot answer",
                metadata: ["database": "\(location)", "error": "\(PostgresPlacesDatabase.detail(error))", "cause": "\(answer.cause?.rawValue ?? "")"]
            )
        }
        return answer
    }

    /// The `PlacesError` a database failure means for a client, in words of our own: a broken rule of the schema is a
    /// conflict, a server that cannot answer now is unavailable (try again), anything else an internal error.
    static func mapped(_ error: PSQLError) -> PlacesError {
        guard let state = error.serverInfo?[.sqlState] else {
            return unavailable("the database cannot be reached; try again", cause: .unreachable)
        }
        switch state {
        case PostgresError.Code.uniqueViolation.raw, PostgresError.Code.foreignKeyViolation.raw, PostgresError.Code.checkViolation.raw:
            return PlacesError(.conflict, "the change conflicts with what is stored")
        case _ where unavailableStates.contains { state.hasPrefix($0) }:
            // Busy, restarting, out of room, read-only after a failover, or a password changed under us: try again.
            return unavailable("the database cannot answer now; try again", cause: .databaseRefused)
        default:
            return PlacesError(.internalError, "the database failed to answer; the failure was logged")
        }
    }

    /// A database failure in full, for the operator's log: the server's SQLSTATE and message, or the connection's
    /// own reason. Never the password.
    static func detail(_ error: PSQLError) -> String {
        if let state = error.serverInfo?[.sqlState] {
            return "\(state): \(error.serverInfo?[.message] ?? "")"
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    /// SQLSTATEs (and classes, by their first two characters) that mean the database cannot answer now rather than
    /// that the request is wrong: connection exceptions (08), invalid authorization (28), a missing database (3D000),
    /// a read-only transaction (25006, a standby after a failover), transaction rollbacks such as serialization
    /// failures and deadlocks (40), insufficient resources (53), operator intervention such as a shutdown or a
    /// cancelled statement (57), a lock not available (55P03).
    static let unavailableStates = ["08", "28", "3D000", "25006", "40", "53", "57", "55P03"]

    /// `unavailable`, to be tried again in a second (the answer's `Retry-After`), and why.
    static func unavailable(_ message: String, cause: PlacesError.Cause) -> PlacesError {
        var error = PlacesError(.unavailable, message)
        error.retryAfterSeconds = 1
        error.cause = cause
        return error
    }
}
