/// Hashes and checks passwords. Slow on purpose, so implementations run off the cooperative thread pool (the server's
/// bcrypt, `BcryptPasswordHasher`, runs on NIO's thread pool at the edge).
public protocol PasswordHasher: Sendable {
    /// A salted hash of `password`.
    func hash(_ password: String) async throws -> String
    /// True when `password` matches `hash`.
    func verify(_ password: String, against hash: String) async throws -> Bool
}
