import PlacesCore
import PlacesRepositoryContract
import Testing

import PlacesPostgres
import PlacesTestPostgres

/// Runs every repository contract case on PostgreSQL, each in a schema of its own; one test per protocol, so a run
/// can pick one (`swift test --filter PostgresContract.accounts`).
@Suite("Repository contract on PostgreSQL", TestPostgres.enabled)
struct PostgresContract {
    static func cases(_ repository: String) -> [ContractCase] {
        RepositoryContract.cases.filter { $0.repository == repository }
    }

    static let factory: RepositoryStoreFactory = { PostgresStore(database: try await TestPostgres.database()) }

    @Test(arguments: cases("places")) func places(_ contractCase: ContractCase) async throws { try await contractCase.run(Self.factory) }
    @Test(arguments: cases("accounts")) func accounts(_ contractCase: ContractCase) async throws { try await contractCase.run(Self.factory) }
    @Test(arguments: cases("groups")) func groups(_ contractCase: ContractCase) async throws { try await contractCase.run(Self.factory) }
    @Test(arguments: cases("collections")) func collections(_ contractCase: ContractCase) async throws { try await contractCase.run(Self.factory) }
    @Test(arguments: cases("decisions")) func decisions(_ contractCase: ContractCase) async throws { try await contractCase.run(Self.factory) }
    @Test(arguments: cases("photos")) func photos(_ contractCase: ContractCase) async throws { try await contractCase.run(Self.factory) }
    @Test(arguments: cases("messages")) func messages(_ contractCase: ContractCase) async throws { try await contractCase.run(Self.factory) }
    @Test(arguments: cases("notifications")) func notifications(_ contractCase: ContractCase) async throws {
        try await contractCase.run(Self.factory)
    }
    @Test(arguments: cases("throttle")) func throttle(_ contractCase: ContractCase) async throws { try await contractCase.run(Self.factory) }
    @Test(arguments: cases("leases")) func leases(_ contractCase: ContractCase) async throws { try await contractCase.run(Self.factory) }
    @Test(arguments: cases("live")) func live(_ contractCase: ContractCase) async throws { try await contractCase.run(Self.factory) }
    @Test(arguments: cases("feed")) func feed(_ contractCase: ContractCase) async throws { try await contractCase.run(Self.factory) }

    /// Every case belongs to one of the protocols above, so none is left out.
    @Test func everyCaseRuns() {
        let known: Set = ["places", "accounts", "groups", "collections", "decisions", "messages", "photos", "notifications", "throttle", "leases", "live", "feed"]
        #expect(RepositoryContract.cases.filter { !known.contains($0.repository) }.map(\.description) == [])
    }
}
