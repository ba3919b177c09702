import Foundation
import GRDB
import GeoIndex
import PlacesCore

/// A seed file's transaction in SQLite. GRDB runs a write transaction as one closure on its writer's queue, so the
/// closure stays open there and takes the batches as they come, until the importer commits or rolls back; the
/// importer awaits each batch without holding a thread. Other writes wait meanwhile, as they wait for any write.
final class SQLiteSeedTransaction: SeedTransaction {
    /// What the importer asks of the open transaction.
    fileprivate enum Command {
        case upsert([Place], CheckedContinuation<[Int: PlacesError], any Error>)
        case added(CheckedContinuation<Int, any Error>)
        case unwritten(prefix: String, box: GeoBox, remove: Bool, now: Date, CheckedContinuation<[String], any Error>)
        case commit
        case rollback
    }

    /// Commands handed from the importer to the closure on the writer's queue.
    ///
    /// `@unchecked Sendable` is sound because its state is read and written only while `condition` is locked.
    private final class Mailbox: @unchecked Sendable {
        private let condition = NSCondition()
        private var commands: [Command] = []
        /// Set once the transaction has ended (or never started): commands then fail at once with this error.
        private var ended: (any Error)?

        func post(_ command: Command) {
            condition.lock()
            if let ended {
                condition.unlock()
                command.fail(ended)
                return
            }
            commands.append(command)
            condition.signal()
            condition.unlock()
        }

        /// The next command, waiting for it (on the writer's queue, never on Swift's cooperative pool).
        func take() -> Command {
            condition.lock()
            defer { condition.unlock() }
            while commands.isEmpty { condition.wait() }
            return commands.removeFirst()
        }

        /// Refuses later commands and fails those still waiting.
        func end(_ error: any Error) {
            condition.lock()
            ended = error
            let left = commands
            commands = []
            condition.unlock()
            for command in left { command.fail(error) }
        }
    }

    private struct RolledBack: Error {}

    private let mailbox = Mailbox()
    private let outcome: Task<Void, any Error>

    init(database: PlacesDatabase) {
        let mailbox = self.mailbox
        outcome = Task {
            do {
                try await database.write { db in try SQLiteSeedTransaction.serve(mailbox, in: db) }
                mailbox.end(PlacesError(.internalError, "the seed transaction has ended"))
            } catch {
                mailbox.end(error)
                throw error
            }
        }
    }

    deinit {
        // An importer that never ended it would hold every writer back.
        mailbox.post(.rollback)
    }

    func upsert(_ places: [Place]) async throws -> [Int: PlacesError] {
        try await withCheckedThrowingContinuation { continuation in mailbox.post(.upsert(places, continuation)) }
    }

    func addedCount() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in mailbox.post(.added(continuation)) }
    }

    func unwritten(idPrefix: String, within box: GeoBox, remove: Bool, now: Date) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            mailbox.post(.unwritten(prefix: idPrefix, box: box, remove: remove, now: now, continuation))
        }
    }

    func commit() async throws {
        mailbox.post(.commit)
        try await outcome.value
    }

    func rollback() async {
        mailbox.post(.rollback)
        _ = try? await outcome.value
    }

    /// The open transaction: applies each batch as it comes, until commit (returning, so GRDB commits) or rollback
    /// (throwing, so it rolls back).
    private static func serve(_ mailbox: Mailbox, in db: Database) throws {
        defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
        let (revision, triggers) = try SQLitePlaceRepository.startSeed(db)
        var writer = try SQLiteSeedWriter(db: db, revision: revision)
        while true {
            switch mailbox.take() {
            case .upsert(let places, let continuation):
                do {
                    var refused: [Int: PlacesError] = [:]
                    for (index, place) in places.enumerated() {
                        if let refusal = try writer.upsert(place) { refused[index] = refusal }
                    }
                    continuation.resume(returning: refused)
                } catch {
                    continuation.resume(throwing: (error as? DatabaseError).map(PlacesDatabase.mapped) ?? error)
                    throw error
                }
            case .added(let continuation):
                continuation.resume(returning: writer.added)
            case .unwritten(let prefix, let box, let remove, let now, let continuation):
                do {
                    continuation.resume(returning: try writer.unwritten(idPrefix: prefix, within: box, remove: remove, now: now))
                } catch {
                    continuation.resume(throwing: (error as? DatabaseError).map(PlacesDatabase.mapped) ?? error)
                    throw error
                }
            case .commit:
                try SQLitePlaceRepository.finishSeed(db, triggers: triggers)
                return
            case .rollback:
                throw RolledBack()
            }
        }
    }
}

extension SQLiteSeedTransaction.Command {
    /// Answers a command that waits for an answer with `error`.
    func fail(_ error: any Error) {
        switch self {
        case .upsert(_, let continuation): continuation.resume(throwing: error)
        case .added(let continuation): continuation.resume(throwing: error)
        case .unwritten(_, _, _, _, let continuation): continuation.resume(throwing: error)
        case .commit, .rollback: break
        }
    }
}
