import Foundation
import Logging
import PlacesCore
import PostgresNIO

extension PostgresPlacesDatabase {
    /// The feed's channel: an instance that committed changes notifies it (once for many commits), and every instance
    /// listens, so a write through one is in the others' index at once. A notification is only a wake-up.
    static let feedChannel = "places_feed"

    /// Listens to the change feed's channel until cancelled, calling `changed` for every notification of another
    /// process (this one's own wake-ups name it, and its writes are in its index already) and once each time listening
    /// (re)starts, since notifications sent while it was not listening are lost. When the connection
    /// fails (the server restarted, the network broke), it connects again, waiting a little longer each time, up to
    /// `retryCeiling`. A notification is only a wake-up: the caller reads what changed, and polls anyway. `listening`
    /// is told when listening starts (true) and when its connection is lost (false).
    public func listenForChanges(
        retryCeiling: Duration = .seconds(5),
        listening: @escaping @Sendable (Bool) -> Void = { _ in },
        _ changed: @escaping @Sendable () -> Void
    ) async {
        var retry = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: PostgresPlacesDatabase.feedChannel) { notifications in
                        retry = .milliseconds(100)
                        logger.info("listening to the change feed", metadata: ["database": "\(location)"])
                        listening(true)
                        changed()
                        for try await notification in notifications where notification.payload != wakeUpPayload { changed() }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning(
                    "the change feed's connection failed; connecting again",
                    metadata: ["database": "\(location)", "error": "\(PostgresPlacesDatabase.describe(error, location: location))"]
                )
            }
            listening(false)
            try? await Task.sleep(for: retry)
            retry = min(retry * 2, retryCeiling)
        }
    }

    /// Wakes the instances listening to the feed's channel after this process commits, until cancelled: one
    /// notification for all the commits since the last (and at most one every `coalescing`), sent on its own rather than
    /// from inside the writers' transactions, where `pg_notify` would take PostgreSQL's one notification lock of the
    /// whole server at every commit. Writers of other processes (psql, an older release) send none: the listeners'
    /// poll finds their changes.
    ///
    /// It sends them on a connection of its own, named `places/wakeup`: a notification takes a transaction id, and the
    /// feed's horizon leaves that name's transactions out (they write no feed row), so a wake-up never holds the feed
    /// back for the changes it announces.
    func announceCommits(coalescing: Duration = .milliseconds(2)) async {
        var connection: PostgresConnection?
        defer { if let connection { Task { try? await connection.close() } } }
        while !Task.isCancelled {
            await committed.wait(upTo: .seconds(3600))
            if Task.isCancelled { return }
            // A failure (the database gone or restarting) only means the others find the changes at their next poll.
            let sent = try? await withTimeLimit(.seconds(5)) { [location, schema, logger, connection, wakeUpPayload] in
                let open: PostgresConnection
                if let connection, !connection.isClosed {
                    open = connection
                } else {
                    var configuration = try location.connectionConfiguration
                    configuration.options.additionalStartupParameters = PostgresPlacesDatabase.startupParameters(
                        schema: schema,
                        name: PostgresPlacesDatabase.wakeUpName
                    )
                    open = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                }
                _ = try await open.query("SELECT pg_notify(\(PostgresPlacesDatabase.feedChannel), \(wakeUpPayload))", logger: logger)
                return open
            } late: { late in
                try? await late.close()
            }
            if let sent {
                connection = sent
            } else {
                logger.debug("could not wake the other instances")
                if let stale = connection { try? await stale.close() }
                connection = nil
            }
            try? await Task.sleep(for: coalescing)
        }
    }

    /// The change feed's rows in the order they were written: what the feed's triggers recorded (for tests and
    /// operators; readers of the feed go through the repositories).
    public func feedRows() async throws -> [(kind: String, subject: String, detail: String?, version: Int64?)] {
        try await read { [logger] connection in
            try await connection.rows("SELECT kind, subject, detail, version FROM feed ORDER BY xid, position", logger: logger).map { row in
                (try row.get("kind"), try row.get("subject"), try row.get("detail"), try row.get("version"))
            }
        }
    }

    /// The name of the wake-up's connection (`announceCommits`), which the feed's horizon leaves out.
    static let wakeUpName = "places/wakeup"

    /// The name of `createDatabase`'s connection, which the feed's horizon leaves out as it does the wake-up's.
    static let createDatabaseName = "places/create-database"

    /// The name a late commit's transaction runs under (a seed's, for as long as it is open), which the feed's horizon
    /// leaves out. It is not `places/…`: a release before late commits leaves only those names out, so its instances
    /// still wait for a seed to commit rather than read past it and miss it.
    static let lateCommitName = "places-seed"

    /// Announces every late commit not yet announced (see the `late-commits` migration): it deletes the commit's row and
    /// appends, in the same transaction, one feed row of kind `late` naming the commit's transaction, at the head of the
    /// feed; readers then re-read what that transaction's feed rows name. Instances may call it at once: each commit is
    /// announced once. True when it announced any. The announcement carries the time the commit's transaction started,
    /// as its own rows do, so that pruning takes them together.
    @discardableResult
    func announceLateCommits() async throws -> Bool {
        try await change { [logger] connection in
            try await connection.value(
                """
                WITH announced AS (DELETE FROM feed_late_commit RETURNING xid, created_at),
                appended AS (
                    INSERT INTO feed (kind, subject, created_at) SELECT 'late', xid::text, created_at FROM announced ORDER BY xid RETURNING 1
                )
                SELECT count(*) > 0 FROM appended
                """,
                as: Bool.self,
                logger: logger
            ) ?? false
        }
    }

    /// A failure as a log line can show it: a database error in full, never the password.
    static func describe(_ error: any Error, location: PostgresLocation) -> String {
        if let error = error as? PSQLError { return detail(error) }
        return "\(error)"
    }
}
