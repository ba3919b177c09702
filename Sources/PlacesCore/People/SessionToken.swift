import Foundation
import Crypto

/// Bearer tokens: 256 bits from the system's secure generator, stored only as their SHA-256.
public enum SessionToken {
    /// A new token: 32 random bytes as unpadded base64url (43 characters).
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<4 { withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) } }
        return base64URL(bytes)
    }

    /// The SHA-256 of a token as 64 lowercase hex digits: the only form a token is stored in.
    public static func hash(_ token: String) -> String {
        Hex.text(SHA256.hash(data: Array(token.utf8)))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * UInt32(offset)) }
            for position in 0...chunk.count { out.append(alphabet[Int((value >> (18 - 6 * UInt32(position))) & 0x3F)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A signed-in session as stored: the token's hash, whose it is, and until when it is valid.
@PublicInit
public struct Session: Sendable, Hashable {
    /// SHA-256 of the bearer token, hex.
    public var tokenHash: String
    /// The user it signs in.
    public var userID: String
    /// When it was issued.
    public var createdAt: Date
    /// When it stops being accepted.
    public var expiresAt: Date
}

/// What a login hands out: the bearer token (shown once, never stored) and its expiry.
public struct IssuedToken: Sendable, Hashable, Codable {
    /// The bearer token.
    public var token: String
    /// When it expires.
    public var expiresAt: Date
}

/// A request's signed-in caller: the user and the session (by token hash) it came with.
public struct Caller: Sendable, Hashable {
    /// The signed-in user.
    public var user: User
    /// The hash of the token the request carried.
    public var tokenHash: String
}
