import Foundation

/// Who takes over a group whose last admin left without naming a successor (their account was deleted): the member
/// who joined first, then by username key, then by id, compared byte by byte as both engines store them. The one rule
/// both engines apply, inside the transaction that left the group without an admin.
public enum GroupSuccession {
    /// A member who may take over, with what orders them.
    @PublicInit
    public struct Candidate: Sendable, Hashable {
        public var userID: String
        /// When they joined, as stored (ISO-8601 text, which sorts as time does).
        public var joinedAt: String
        /// Their username's key (folded for comparison).
        public var usernameKey: String
    }

    /// The member who becomes admin; nil for a group without members.
    public static func eldest(_ members: [Candidate]) -> String? {
        members.min { first, second in
            for (a, b) in [(first.joinedAt, second.joinedAt), (first.usernameKey, second.usernameKey), (first.userID, second.userID)]
            where a != b {
                return a.utf8.lexicographicallyPrecedes(b.utf8)
            }
            return false
        }?.userID
    }
}
