import GRDB
import Foundation
import PlacesCore
import PlacesRepositoryContract
import Testing

@testable import PlacesSQLite

/// Runs every repository contract case on SQLite, in a file (WAL, a pool of readers) and in memory.
@Suite("Repository contract on SQLite")
struct RepositoryContractTests {
    /// The two ways the service opens SQLite.
    enum Storage: String, CaseIterable, CustomTestStringConvertible {
        case file
        case memory

        var testDescription: String { rawValue }

        /// A fresh, empty store of this kind.
        var factory: RepositoryStoreFactory {
            switch self {
            case .file:
                return {
                    let folder = try Fixtures.temporaryFolder()
                    let database = try PlacesDatabase(path: folder.appendingPathComponent("contract.sqlite").path)
                    return SQLiteStore(database: database, folder: folder)
                }
            case .memory:
                return { SQLiteStore(database: try PlacesDatabase.inMemory(), folder: nil) }
            }
        }
    }

    @Test(arguments: RepositoryContract.cases, Storage.allCases)
    func contract(_ contractCase: ContractCase, storage: Storage) async throws {
        try await contractCase.run(storage.factory)
    }
}

/// A SQLite database seen through Core's repository protocols; a file's temporary folder is removed on close.
struct SQLiteStore: RepositoryStore {
    let database: PlacesDatabase
    let folder: URL?

    var places: any PlaceRepository { database.places }
    var photos: any PhotoRepository { database.photos }
    var accounts: any AccountRepository { database.accounts }
    var groups: any GroupRepository { database.groups }
    var collections: any CollectionRepository { database.collections }
    var decisions: any DecisionRepository { database.decisions }
    var messages: any MessageRepository { database.messages }
    var notifications: any NotificationRepository { database.notifications }
    var throttle: any ThrottleRepository { database.throttle }
    var leases: any LeaseRepository { database.leases }
    var live: any LiveRepository { database.live }
    var feed: any ChangeFeedRepository { database.feed }

    func feedRows() async throws -> [FeedRow] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT kind, subject, detail, version FROM feed ORDER BY position").map { row in
                FeedRow(row["kind"], row["subject"], row["detail"], version: row["version"])
            }
        }
    }

    func execute(sql: String) async throws {
        try await database.write { try $0.execute(sql: sql) }
    }

    func close() async throws {
        if let folder { try FileManager.default.removeItem(at: folder) }
    }
}
