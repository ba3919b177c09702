import Foundation

/// A friend request, pending until the person asked accepts or declines it.
public struct FriendRequest: Sendable, Hashable, Encodable {
    /// Who asked.
    public var from: PublicUser
    /// Who was asked.
    public var to: PublicUser
    /// When.
    public var createdAt: Date

    /// Makes a request.
    public init(from: PublicUser, to: PublicUser, createdAt: Date) {
        self.from = from
        self.to = to
        self.createdAt = createdAt
    }
}

/// Someone a person is friends with, and since when.
public struct Friend: Sendable, Hashable, Encodable {
    /// The friend.
    public var user: PublicUser
    /// When the request was accepted.
    public var since: Date

    /// Makes a friend.
    public init(user: PublicUser, since: Date) {
        self.user = user
        self.since = since
    }
}

/// How two people stand: nothing, a request one way, or friends.
public enum Friendship: Sendable, Hashable {
    /// `requesterID` asked and the other has not answered.
    case pending(requesterID: String)
    /// They are friends.
    case friends
}
