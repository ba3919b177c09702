import Foundation

/// A person with an account: how they sign in and what others see of them.
@PublicInit
public struct User: Sendable, Hashable, Identifiable {
    /// Stable id (`u-` and 16 hex digits), never reused.
    public var id: String
    /// The name people find them by (3–32 letters, digits, `_` or `.`), unique regardless of case.
    public var username: String
    /// Normalised e-mail address (trimmed, lowercase), unique; shown only to its owner.
    public var email: String?
    /// Normalised phone number (`+` and digits), unique; shown only to its owner.
    public var phone: String?
    /// The bcrypt hash of the password; never leaves the service.
    public var passwordHash: String
    /// The profile others see.
    public var profile: Profile = Profile()
    /// When the account was made.
    public var createdAt: Date
    /// When the account last changed.
    public var updatedAt: Date

    /// The editable, public part of an account.
    @PublicInit
    public struct Profile: Sendable, Hashable, Codable {
        /// The name shown beside their places and votes (up to 80 characters).
        public var displayName: String?
        /// A few words about them (up to 500 characters).
        public var bio: String?
        /// Their home city (up to 100 characters).
        public var city: String?
        /// An http(s) URL of their picture, as they typed it.
        public var avatarURL: String?
        /// The address of the picture they uploaded (`PUT /v1/me/picture`), served by Places; nil when none.
        public var pictureURL: String? = nil
    }
}

/// What anyone may see of a person: no e-mail, no phone, no hash. In JSON the profile's members stand beside the id
/// and username.
@PublicInit
public struct PublicUser: Sendable, Hashable, Codable {
    public var id: String
    public var username: String
    public var profile: User.Profile
    /// Their status, where the reader may see it (friends and fellow group members, no block either way, not expired);
    /// absent elsewhere.
    public var status: UserStatus? = nil

    /// The public view of `user`.
    public init(_ user: User) {
        self.init(id: user.id, username: user.username, profile: user.profile)
    }

    private enum CodingKeys: String, CodingKey {
        case id, username, status
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        self.init(
            id: id,
            username: try container.decode(String.self, forKey: .username),
            profile: try User.Profile(from: decoder),
            status: try container.decodeIfPresent(UserStatus.self, forKey: .status)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(username, forKey: .username)
        try profile.encode(to: encoder)
        try container.encodeIfPresent(status, forKey: .status)
    }
}

/// What a person sees of their own account: the public view plus their e-mail and phone.
public struct OwnUser: Sendable, Hashable, Codable {
    public var id: String
    public var username: String
    public var email: String?
    public var phone: String?
    public var displayName: String?
    public var bio: String?
    public var city: String?
    public var avatarURL: String?
    /// The address of the picture they uploaded, when they did.
    public var pictureURL: String?
    public var createdAt: Date
    public var updatedAt: Date
    /// Their status while it shows (`GET /v1/me` reads it; absent elsewhere).
    public var status: UserStatus?

    /// The owner's view of `user`.
    public init(_ user: User) {
        id = user.id
        username = user.username
        email = user.email
        phone = user.phone
        displayName = user.profile.displayName
        bio = user.profile.bio
        city = user.profile.city
        avatarURL = user.profile.avatarURL
        pictureURL = user.profile.pictureURL
        createdAt = user.createdAt
        updatedAt = user.updatedAt
    }
}
