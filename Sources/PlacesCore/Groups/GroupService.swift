import Foundation

/// Friends and groups: requests, invitations, membership and the rules admins keep.
public struct GroupService: Sendable {
    let repository: any GroupRepository
    let accounts: any AccountRepository
    /// Takes those who leave a group out of its open decisions.
    let decisions: DecisionService
    let limits: UsageLimits
    let notifier: Notifier
    let clock: @Sendable () -> Date

    // MARK: - Friends

    /// Asks `username` to be friends; when they had already asked the caller, the two become friends at once.
    public func requestFriend(_ caller: User, username: String) async throws -> FriendshipStatus {
        let other = try await PlacesError.referenced("username") { try await person(username, field: "username") }
        // Before any answer that tells about the two (already friends, a pending request): a block first.
        try await accounts.checkNoBlock(callerID: caller.id, other: other, name: username, field: "username")
        guard other.id != caller.id else { throw PlacesError.invalid("username", "you cannot befriend yourself") }
        switch try await repository.friendship(caller.id, other.id) {
        case .friends:
            throw PlacesError(.conflict, "you and \(other.username) are already friends", field: "username")
        case .pending(let requesterID) where requesterID == caller.id:
            throw PlacesError(.conflict, "you already asked \(other.username); wait for an answer", field: "username")
        case .pending:
            _ = try await repository.acceptFriendRequest(from: other.id, to: caller.id, now: clock())
            return FriendshipStatus(user: PublicUser(other), status: .friends)
        case nil:
            try UsageLimits.check(
                try await repository.pendingFriendRequestCount(requesterID: caller.id),
                below: limits.pendingFriendRequestsSent,
                "pending friend requests"
            )
            let notifications = try await notificationsOfAsking(
                .friendRequest,
                subjectID: caller.id,
                to: other.id,
                message: "\(caller.username) wants to be your friend",
                subject: .init(userId: caller.id)
            )
            try await accounts.checkingNoBlock(callerID: caller.id, other: other, name: username, field: "username") {
                try await repository.insertFriendRequest(from: caller.id, to: other.id, now: clock(), notifications: notifications)
            }
            return FriendshipStatus(user: PublicUser(other), status: .pending)
        }
    }

    /// Accepts `username`'s request to the caller.
    public func acceptFriend(_ caller: User, username: String) async throws -> FriendshipStatus {
        let other = try await person(username, field: "username")
        guard try await repository.acceptFriendRequest(from: other.id, to: caller.id, now: clock()) else {
            throw PlacesError.notFound("\(other.username) has not asked to be your friend")
        }
        return FriendshipStatus(user: PublicUser(other), status: .friends)
    }

    /// Declines `username`'s request to the caller.
    public func declineFriend(_ caller: User, username: String) async throws {
        let other = try await person(username, field: "username")
        guard try await repository.declineFriendRequest(from: other.id, to: caller.id, now: clock()) else {
            throw PlacesError.notFound("\(other.username) has not asked to be your friend")
        }
    }

    /// Ends a friendship, or withdraws a request either way.
    public func unfriend(_ caller: User, username: String) async throws {
        let other = try await person(username, field: "username")
        guard try await repository.deleteFriendship(caller.id, other.id) else {
            throw PlacesError.notFound("you and \(other.username) are not friends")
        }
    }

    /// A page of the caller's friends, with the statuses they show.
    public func friends(_ caller: User, page: PageRequest) async throws -> Page<Friend> {
        var friends = try await repository.friends(of: caller.id, page: page)
        let users = try await accounts.showingStatuses(friends.items.map(\.user), to: caller.id, now: clock())
        for index in friends.items.indices { friends.items[index].user = users[index] }
        return friends
    }

    /// A page of the requests to the caller (`incoming`) or from them.
    public func friendRequests(_ caller: User, incoming: Bool, page: PageRequest) async throws -> Page<FriendRequest> {
        try await repository.friendRequests(userID: caller.id, incoming: incoming, page: page)
    }

    // MARK: - Groups

    /// Makes a group; the caller is its first admin.
    public func createGroup(_ caller: User, _ command: NewGroup) async throws -> Group {
        let name = try Group.checkedName(command.name, missing: "name is required")
        try await checkRoomForAnotherGroup(caller)
        let now = clock()
        let group = Group(
            id: RandomID.make("g-"),
            name: name,
            description: try Group.checkedDescription(command.description),
            pictureURL: try TextRules.webURL(command.pictureURL, field: "pictureURL"),
            createdAt: now,
            updatedAt: now,
            members: [GroupMember(user: PublicUser(caller), role: .admin, joinedAt: now)]
        )
        try await repository.insert(group, creatorID: caller.id)
        return group
    }

    /// The group, for its members (`forbidden` for anyone else), with the statuses its members show the caller.
    public func group(_ caller: User, id: String) async throws -> Group {
        var group = try await existingGroup(id)
        guard group.role(of: caller.id) != nil else { throw PlacesError.forbidden("only members see a group") }
        let users = try await accounts.showingStatuses(group.members.map(\.user), to: caller.id, now: clock())
        for index in group.members.indices { group.members[index].user = users[index] }
        return group
    }

    /// A page of the caller's groups.
    public func groups(_ caller: User, page: PageRequest) async throws -> Page<Group> {
        try await repository.groups(memberID: caller.id, page: page)
    }

    /// Changes the group's name, description or picture (admins).
    public func updateGroup(_ caller: User, id: String, _ patch: GroupPatch) async throws -> Group {
        var group = try await adminGroup(caller, id)
        try group.apply(name: patch.name, description: patch.description)
        if patch.pictureURL.changes { group.pictureURL = try TextRules.webURL(patch.pictureURL.applied(to: nil), field: "pictureURL") }
        group.updatedAt = clock()
        try await repository.update(group)
        return group
    }

    /// Deletes the group with its collections (admins).
    public func deleteGroup(_ caller: User, id: String) async throws {
        _ = try await adminGroup(caller, id)
        try await repository.deleteGroup(id: id)
    }

    /// Invites `username` into the group (admins); they join when they accept.
    public func invite(_ caller: User, groupID: String, username: String) async throws -> GroupInvitation {
        let group = try await adminGroup(caller, groupID)
        let invitee = try await PlacesError.referenced("username") { try await person(username, field: "username") }
        try await accounts.checkNoBlock(callerID: caller.id, other: invitee, name: username, field: "username")
        guard group.role(of: invitee.id) == nil else {
            throw PlacesError(.conflict, "\(invitee.username) is already a member", field: "username")
        }
        try UsageLimits.check(
            try await repository.pendingInvitationCount(inviterID: caller.id),
            below: limits.pendingInvitationsSent,
            "pending invitations"
        )
        let notifications = try await notificationsOfAsking(
            .groupInvitation,
            subjectID: group.id,
            to: invitee.id,
            message: "\(caller.username) invited you to the group \(group.name)",
            subject: .init(userId: caller.id, groupId: group.id)
        )
        let now = clock()
        try await accounts.checkingNoBlock(callerID: caller.id, other: invitee, name: username, field: "username") {
            try await repository.insertInvitation(groupID: group.id, inviteeID: invitee.id, inviterID: caller.id, now: now, notifications: notifications)
        }
        return GroupInvitation(groupId: group.id, groupName: group.name, invitee: PublicUser(invitee), invitedBy: PublicUser(caller), createdAt: now)
    }

    /// A page of the caller's pending invitations.
    public func invitations(_ caller: User, page: PageRequest) async throws -> Page<GroupInvitation> {
        try await repository.invitations(inviteeID: caller.id, page: page)
    }

    /// Accepts or declines the caller's invitation into a group; accepting returns the group.
    @discardableResult
    public func answerInvitation(_ caller: User, groupID: String, accept: Bool) async throws -> Group? {
        if accept { try await checkRoomForAnotherGroup(caller) }
        guard try await repository.answerInvitation(groupID: groupID, inviteeID: caller.id, accept: accept, now: clock()) else {
            throw PlacesError.notFound("you have no invitation to group \(PlacesError.quoted(groupID))")
        }
        return accept ? try await existingGroup(groupID) : nil
    }

    /// Leaves a group. The last admin names a member to take over (`successor`) unless nobody else is left, in which
    /// case the group ends.
    public func leave(_ caller: User, groupID: String, successor: String?) async throws {
        let group = try await existingGroup(groupID)
        guard let role = group.role(of: caller.id) else { throw PlacesError.forbidden("you are not a member of this group") }
        var successorID: String?
        if let successor {
            let next = try await PlacesError.referenced("successor") { try await person(successor, field: "successor") }
            guard group.role(of: next.id) != nil, next.id != caller.id else {
                throw PlacesError.invalid("successor", "the successor must be another member of the group")
            }
            successorID = next.id
        } else if role == .admin, group.adminCount == 1, group.members.count > 1 {
            throw PlacesError(.conflict, "you are the group's last admin: name another member as successor", field: "successor")
        }
        try await repository.removeMember(groupID: groupID, userID: caller.id, promoting: successorID)
        try await decisions.memberLeft(groupID: groupID, userID: caller.id)
    }

    /// Removes another member (admins).
    public func removeMember(_ caller: User, groupID: String, username: String) async throws {
        let group = try await adminGroup(caller, groupID)
        let member = try await person(username, field: "username")
        guard member.id != caller.id else { throw PlacesError.invalid("username", "to leave the group yourself, use leave") }
        guard group.role(of: member.id) != nil else { throw PlacesError.notFound("\(member.username) is not a member") }
        try await repository.removeMember(groupID: groupID, userID: member.id, promoting: nil)
        try await decisions.memberLeft(groupID: groupID, userID: member.id)
    }

    /// Makes a member an admin or a plain member (admins); the group always keeps an admin.
    public func setRole(_ caller: User, groupID: String, username: String, role: GroupRole) async throws -> Group {
        let group = try await adminGroup(caller, groupID)
        let member = try await person(username, field: "username")
        guard let current = group.role(of: member.id) else { throw PlacesError.notFound("\(member.username) is not a member") }
        if current == .admin, role == .member, group.adminCount == 1 {
            throw PlacesError(.conflict, "a group keeps at least one admin: promote another member first", field: "username")
        }
        try await repository.setRole(groupID: groupID, userID: member.id, role: role)
        return try await existingGroup(groupID)
    }

    // MARK: - Limits

    /// Refuses (409 `limit_reached`) a person who already belongs to as many groups as the limits allow.
    private func checkRoomForAnotherGroup(_ caller: User) async throws {
        try UsageLimits.check(try await repository.groupIDs(memberID: caller.id).count, below: limits.groupsPerPerson, "groups")
    }

    /// The notification of asking someone (a friend request from the subject, or an invitation into the group): none
    /// when they declined the same ask so recently that asking again must not notify them.
    private func notificationsOfAsking(
        _ kind: DeclinedKind,
        subjectID: String,
        to recipientID: String,
        message: String,
        subject: UserNotification.Subject
    ) async throws -> [UserNotification] {
        let declined = try await repository.lastDeclined(kind, subjectID: subjectID, recipientID: recipientID)
        let quiet = declined.map { clock().timeIntervalSince($0) < limits.quietAfterDecline } ?? false
        return try await notifier.notifications(kind.notification, to: quiet ? [] : [recipientID], message: message, subject: subject)
    }

    // MARK: - Lookups

    /// The group with this id, or `not_found`.
    public func existingGroup(_ id: String) async throws -> Group {
        guard let group = try await repository.group(id: id) else {
            throw PlacesError.notFound("no group with id \(PlacesError.quoted(id))")
        }
        return group
    }

    /// The group, when the caller is one of its admins (`forbidden` for other members and for anyone else).
    func adminGroup(_ caller: User, _ id: String) async throws -> Group {
        let group = try await existingGroup(id)
        guard group.role(of: caller.id) == .admin else { throw PlacesError.forbidden("only the group's admins may do this") }
        return group
    }

    /// The user `username` names, or `not_found` (a username the address names; one a body names is looked up through
    /// `PlacesError.referenced`).
    private func person(_ username: String, field: String) async throws -> User {
        guard let user = try await accounts.user(login: .username(username)) else {
            throw PlacesError(.notFound, "no user named \(PlacesError.quoted(username))", field: field)
        }
        return user
    }
}

/// Where the caller stands with someone after a friend request.
public struct FriendshipStatus: Sendable, Hashable, Encodable {
    /// Pending (asked) or friends.
    public enum Status: String, Sendable, Hashable, Encodable {
        case pending, friends
    }

    /// The other person.
    public var user: PublicUser
    /// Where it stands.
    public var status: Status
}

extension DeclinedKind {
    /// The notification this kind of ask sends.
    var notification: UserNotification.Kind {
        switch self {
        case .friendRequest: .friendRequest
        case .groupInvitation: .groupInvitation
        }
    }
}
