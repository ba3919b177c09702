import Foundation

/// An admin's alert to their group (`POST /v1/groups/{id}/alerts`, `places group alert`), as the request gave it (Core
/// checks the text).
@PublicInit
public struct SendAlert: Sendable, Hashable {
    /// The message: 1 to 280 characters with a title's rules (one line, nothing that reorders or hides text), trimmed.
    public var message: String?
}

/// An alert about to be stored: who sent it to which group, and when. Its words reach the members as notifications;
/// the row is what the bound on alerts an hour counts.
@PublicInit
public struct GroupAlert: Sendable, Hashable {
    /// `a-` and 16 hex digits.
    public var id: String
    /// The group it went to.
    public var groupId: String
    /// The admin who sent it.
    public var senderId: String
    /// When it was sent.
    public var createdAt: Date
}

/// What storing an alert did.
public enum AlertInsert: Sendable, Hashable {
    /// It is stored, with its notifications.
    case stored
    /// The group no longer exists: nothing was stored.
    case noGroup
    /// The group reached the bound: nothing was stored. `oldestCounted` is when the oldest of the alerts that reach it
    /// was sent (the bound frees one place a window after it).
    case tooMany(oldestCounted: Date)
}
