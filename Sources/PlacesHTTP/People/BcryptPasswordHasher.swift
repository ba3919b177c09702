import HummingbirdBcrypt
import NIOPosix
import PlacesCore

/// bcrypt (HummingbirdBcrypt) on NIO's shared thread pool, as hummingbird-auth's own verifier runs it: a hash never
/// holds a thread of Swift's cooperative pool or of the event loops that answer requests.
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

    public func hash(_ password: String) async throws -> String {
        let cost = cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, against hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
