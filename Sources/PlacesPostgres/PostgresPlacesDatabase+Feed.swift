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

    /// A failure as a log line can show it: a database error in full, never the password.
    static func describe(_ error: any Error, location: PostgresLocation) -> String {
        if let error = error as? PSQLError { return detail(error) }
        return "\(error)"
    }
}
