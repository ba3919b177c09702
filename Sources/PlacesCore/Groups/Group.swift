import Foundation

/// People who decide together: a name, a description, a picture, and members of whom some are admins.
@PublicInit
public struct Group: Sendable, Hashable, Encodable {
    /// `g-` and 16 hex digits.
    public var id: String
    /// 1–80 characters.
    public var name: String
    /// Up to 500 characters.
    public var description: String?
    /// An http(s) URL of its picture.
    public var pictureURL: String?
    /// When it was made.
    public var createdAt: Date
    /// When its name, description or picture last changed.
    public var updatedAt: Date
    /// The members, admins first, then by username.
    public var members: [GroupMember]

    /// The member's role, or nil when they are not a member.
    public func role(of userID: String) -> GroupRole? {
        members.first { $0.user.id == userID }?.role
    }

    /// How many admins the group has.
    public var adminCount: Int { members.count { $0.role == .admin } }
}

/// What a member may do in a group.
public enum GroupRole: String, Sendable, Hashable, Codable {
    /// Invites, removes members, promotes and demotes, renames and deletes the group's collections, closes decisions.
    case admin
    /// Reads, adds places to the group's collections, starts and votes in decisions.
    case member
}

/// One member of a group.
@PublicInit
public struct GroupMember: Sendable, Hashable, Encodable {
    /// Who.
    public var user: PublicUser
    /// Admin or member.
    public var role: GroupRole
    /// When they joined.
    public var joinedAt: Date
}

/// An invitation into a group, waiting for the invited person to accept or decline.
@PublicInit
public struct GroupInvitation: Sendable, Hashable, Encodable {
    /// The group's id.
    public var groupId: String
    /// The group's name.
    public var groupName: String
    /// Who is invited.
    public var invitee: PublicUser
    /// Which admin invited them.
    public var invitedBy: PublicUser
    /// When.
    public var createdAt: Date
}
