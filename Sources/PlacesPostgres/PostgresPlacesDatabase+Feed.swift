import Foundation
import Logging
import PlacesCore
import PostgresNIO

extension PostgresPlacesDatabase {
    /// Listens to the change feed's channel until cancelled, calling `changed` for every notification and once each
    /// time listening (re)starts, since notifications sent while it was not listening are lost. When the connection
    /// fails (the server restarted, the network broke), it connects again, waiting a little longer each time, up to
    /// `retryCeiling`. A notification is only a wake-up: the caller reads what changed, and polls anyway.
    public func listenForChanges(retryCeiling: Duration = .seconds(5), _ changed: @escaping @Sendable () -> Void) async {
        var retry = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: PostgresPlaceRepository.feedChannel) { notifications in
                        retry = .milliseconds(100)
                        logger.info("listening to the change feed", metadata: ["database": "\(location)"])
                        changed()
                        for try await _ in notifications { changed() }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning(
                    "the change feed's connection failed; connecting again",
                    metadata: ["database": "\(location)", "error": "\(PostgresPlacesDatabase.describe(error, location: location))"]
                )
            }
            try? await Task.sleep(for: retry)
            retry = min(retry * 2, retryCeiling)
        }
    }

    /// Wakes the instances listening to the feed's channel after this process commits, until cancelled: one
    /// notification for all the commits since the last (and at most one every `coalescing`), sent on its own rather than
    /// from inside the writers' transactions, where `pg_notify` would take PostgreSQL's one notification lock of the
    /// whole server at every commit. Writers of other processes (psql, an older release) send none: the listeners'
    /// poll finds their changes.
    func announceCommits(coalescing: Duration = .milliseconds(2)) async {
        while !Task.isCancelled {
            await committed.wait(upTo: .seconds(3600))
            if Task.isCancelled { return }
            // Straight on a pooled connection: an access would count as a write and ring for itself, and a failure
            // (the database closed or gone) only means the others find the changes at their next poll.
            let (client, logger) = (client, logger)
            let sent = try? await withTimeLimit(.seconds(5)) {
                try await client.withConnection { connection in
                    _ = try await connection.query("SELECT pg_notify(\(PostgresPlaceRepository.feedChannel), '')", logger: logger)
                }
            }
            if sent == nil { logger.debug("could not wake the other instances") }
            try? await Task.sleep(for: coalescing)
        }
    }

    /// A failure as a log line can show it: a database error in full, never the password.
    static func describe(_ error: any Error, location: PostgresLocation) -> String {
        if let error = error as? PSQLError { return detail(error) }
        return "\(error)"
    }
}
