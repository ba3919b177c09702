import Dispatch
import HummingbirdBcrypt

/// Hashes and checks passwords. Slow on purpose, so implementations run off the cooperative thread pool.
public protocol PasswordHasher: Sendable {
    /// A salted hash of `password`.
    func hash(_ password: String) async throws -> String
    /// True when `password` matches `hash`.
    func verify(_ password: String, against hash: String) async throws -> Bool
}

/// bcrypt (HummingbirdBcrypt), on a Dispatch worker thread so a login never stalls the requests around it.
public struct BcryptPasswordHasher: PasswordHasher {
    /// The cost used in production: 2^12 rounds.
    public static let productionCost: UInt8 = 12
    /// bcrypt's smallest cost, for tests.
    public static let minimumCost: UInt8 = 4

    /// log2 of the rounds.
    public let cost: UInt8

    /// Makes a hasher; a cost outside 4...31 is `invalid_input`.
    public init(cost: UInt8 = BcryptPasswordHasher.productionCost) throws(PlacesError) {
        guard (BcryptPasswordHasher.minimumCost...31).contains(cost) else {
            throw .invalid("bcrypt-cost", "bcrypt cost must be from 4 to 31")
        }
        self.cost = cost
    }

    public func hash(_ password: String) async -> String {
        let cost = cost
        return await offThePool { Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, against hash: String) async -> Bool {
        await offThePool { Bcrypt.verify(password, hash: hash) }
    }

    private func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}
