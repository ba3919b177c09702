import Foundation

/// What one account can make, far above what a person does and far below what a script can do. Reaching a bound on
/// things that stay (groups, collections, open decisions, pending requests) is 409 `limit_reached`; reaching the
/// daily bounds on new places and photos, the bound on messages a minute, or a group's bound on alerts an hour, is
/// 429 `too_many_attempts` with `Retry-After`. By default: 100 groups, 200 collections, 50 open decisions, 200 places
/// a day, 20 photos of one place and 100 photos a day, 10 messages a minute, 10 alerts to a group an hour, 100 pending
/// invitations and 100 pending friend requests; 30 days of quiet after a decline.
@PublicInit
public struct UsageLimits: Sendable, Hashable {
    /// Groups one person belongs to (made or joined).
    public var groupsPerPerson: Int = 100
    /// Personal collections of one person, and collections of one group.
    public var collectionsPerOwner: Int = 200
    /// Active decisions one person started.
    public var activeDecisionsPerPerson: Int = 50
    /// Places one person adds in 24 hours.
    public var placesPerDay: Int = 200
    /// Messages one person posts in decisions' conversations in a minute.
    public var messagesPerMinute: Int = 10
    /// Alerts a group's admins send it in an hour, all admins together.
    public var alertsPerGroupPerHour: Int = 10
    /// Photos one person has of one place.
    public var photosPerPlace: Int = 20
    /// Photos one person adds in 24 hours (of places, and pictures).
    public var photosPerDay: Int = 100
    /// Pending group invitations one person has sent.
    public var pendingInvitationsSent: Int = 100
    /// Pending friend requests one person has sent.
    public var pendingFriendRequestsSent: Int = 100
    /// After someone declines a friend request or an invitation, asking them again within this time is stored but
    /// does not notify them again.
    public var quietAfterDecline: TimeInterval = 30 * 24 * 60 * 60

    /// Throws 409 `limit_reached` when `count` things already reach `bound`.
    static func check(_ count: Int, below bound: Int, _ what: String) throws(PlacesError) {
        guard count >= bound else { return }
        throw PlacesError(.limitReached, "you have reached the limit of \(bound) \(what)")
    }
}
