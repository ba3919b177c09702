import Foundation

/// A friend request, pending until the person asked accepts or declines it.
@PublicInit
public struct FriendRequest: Sendable, Hashable, Encodable {
    /// Who asked.
    public var from: PublicUser
    /// Who was asked.
    public var to: PublicUser
    /// When.
    public var createdAt: Date
}

/// Someone a person is friends with, and since when.
@PublicInit
public struct Friend: Sendable, Hashable, Encodable {
    /// The friend.
    public var user: PublicUser
    /// When the request was accepted.
    public var since: Date
}

/// How two people stand: nothing, a request one way, or friends.
public enum Friendship: Sendable, Hashable {
    /// `requesterID` asked and the other has not answered.
    case pending(requesterID: String)
    /// They are friends.
    case friends
}
