import Foundation

/// Stores friendships, groups, their members and invitations. Each call is one transaction, and the
/// notifications it is given are stored in that same transaction.
public protocol GroupRepository: Sendable {
    // MARK: Friends

    /// How two people stand; nil when there is neither a request nor a friendship.
    func friendship(_ a: String, _ b: String) async throws -> Friendship?
    /// Stores a pending request from `from` to `to`.
    func insertFriendRequest(from: String, to: String, now: Date, notifications: [UserNotification]) async throws
    /// Turns `from`'s pending request to `to` into a friendship; false when there is no such request.
    func acceptFriendRequest(from: String, to: String, now: Date) async throws -> Bool
    /// Ends `from`'s pending request to `to` and remembers that `to` declined it; false when there was no such request.
    func declineFriendRequest(from: String, to: String, now: Date) async throws -> Bool
    /// How many pending friend requests the person has sent.
    func pendingFriendRequestCount(requesterID: String) async throws -> Int
    /// When the person last declined a friend request or an invitation from `subjectID` (the requester, or the group).
    func lastDeclined(_ kind: DeclinedKind, subjectID: String, recipientID: String) async throws -> Date?
    /// Removes a request or friendship between the two, either way round; false when there was none.
    func deleteFriendship(_ a: String, _ b: String) async throws -> Bool
    /// A page of the person's friends, by username ignoring case, then id.
    func friends(of userID: String, page: PageRequest) async throws -> Page<Friend>
    /// A page of pending requests to the person (`incoming`) or from them, newest first.
    func friendRequests(userID: String, incoming: Bool, page: PageRequest) async throws -> Page<FriendRequest>

    // MARK: Groups

    /// Stores a new group with its creator as its only member, an admin.
    func insert(_ group: Group, creatorID: String) async throws
    /// The group with its members.
    func group(id: String) async throws -> Group?
    /// A page of the groups the person belongs to, by name ignoring case (then as written, then id).
    func groups(memberID: String, page: PageRequest) async throws -> Page<Group>
    /// The ids of every group the person belongs to.
    func groupIDs(memberID: String) async throws -> [String]
    /// Saves the group's name, description and picture.
    func update(_ group: Group) async throws
    /// Deletes the group, its members, invitations, collections and decisions.
    func deleteGroup(id: String) async throws

    /// Stores an invitation; `conflict` when one is already pending.
    func insertInvitation(groupID: String, inviteeID: String, inviterID: String, now: Date, notifications: [UserNotification])
        async throws
    /// A page of the pending invitations to the person, newest first.
    func invitations(inviteeID: String, page: PageRequest) async throws -> Page<GroupInvitation>
    /// How many pending invitations the person has sent.
    func pendingInvitationCount(inviterID: String) async throws -> Int
    /// Ends an invitation, adding the invitee as a member when `accept` and remembering the decline otherwise; false
    /// when there was none.
    func answerInvitation(groupID: String, inviteeID: String, accept: Bool, now: Date) async throws -> Bool

    /// Sets a member's role.
    func setRole(groupID: String, userID: String, role: GroupRole) async throws
    /// Removes a member, first making `successorID` an admin when given; deletes the group when nobody is left.
    func removeMember(groupID: String, userID: String, promoting successorID: String?) async throws

    // MARK: Alerts

    /// Stores an admin's alert with its notifications when its group still exists and received fewer than
    /// `limit.allowed` alerts at or after `limit.since`; otherwise writes nothing and says why. One group's alerts are
    /// counted one at a time, whichever instance sends them, so the bound is exact.
    func insertAlert(_ alert: GroupAlert, limit: WindowLimit, notifications: [UserNotification]) async throws -> AlertInsert
}

/// What someone declined: a friend request (its subject is the requester) or a group invitation (the group).
public enum DeclinedKind: String, Sendable, Hashable {
    case friendRequest = "friend"
    case groupInvitation = "group"
}
