import PlacesCore
import Testing

/// One behaviour of one repository protocol, checked on a fresh store.
public struct ContractCase: Sendable {
    /// The protocol it specifies: `places`, `accounts`, `groups`, `collections`, `decisions`, `messages`, `notifications`,
    /// `throttle`, `leases` or `live`.
    public let repository: String
    /// What it checks, as a sentence.
    public let name: String
    private let body: @Sendable (any RepositoryStore) async throws -> Void

    /// Makes a case.
    init(_ repository: String, _ name: String, body: @escaping @Sendable (any RepositoryStore) async throws -> Void) {
        self.repository = repository
        self.name = name
        self.body = body
    }

    /// Runs the case on a store the factory makes, closing the store afterwards whatever happens.
    public func run(_ factory: RepositoryStoreFactory) async throws {
        let store = try await factory()
        do {
            try await body(store)
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }
}

extension ContractCase: CustomStringConvertible, CustomTestStringConvertible {
    public var description: String { "\(repository): \(name)" }
    public var testDescription: String { description }
}

/// Every contract case, by protocol; an engine's test target runs each of them on its stores.
public enum RepositoryContract {
    /// All cases, places first.
    public static var cases: [ContractCase] {
        PlaceRepositoryContract.cases + ChangeFeedContract.cases + AccountRepositoryContract.cases + GroupRepositoryContract.cases
            + CollectionRepositoryContract.cases + DecisionRepositoryContract.cases + MessageRepositoryContract.cases
            + NotificationRepositoryContract.cases + PhotoRepositoryContract.cases
            + ConcurrentWritesContract.cases + FailedWritesContract.cases + ThrottleRepositoryContract.cases + LeaseRepositoryContract.cases
            + LiveRepositoryContract.cases + ChangeFeedRepositoryContract.cases
    }
}
