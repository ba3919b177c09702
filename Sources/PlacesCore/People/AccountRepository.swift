import Foundation

/// How a login names the account.
public enum LoginName: Sendable, Hashable {
    case username(String)
    case email(String)
    case phone(String)

    /// The throttle's key for this name (already normalised).
    public var key: String {
        switch self {
        case .username(let name): "username:" + AccountRules.usernameKey(name)
        case .email(let email): "email:" + email
        case .phone(let phone): "phone:" + phone
        }
    }
}

/// Stores accounts, sessions and settings; the SQLite target implements it.
public protocol AccountRepository: Sendable {
    /// Stores a new user; `conflict` naming the field when the username, e-mail or phone is taken.
    func insert(_ user: User) async throws
    /// The user with this id.
    func user(id: String) async throws -> User?
    /// The user a login names (a username in any case); nil when none.
    func user(login: LoginName) async throws -> User?
    /// Saves a changed user (profile, e-mail, phone); `conflict` naming the field when a new value is taken.
    func update(_ user: User) async throws
    /// Sets a new password hash and ends every session of the user but `keeping`, in one transaction.
    func updatePassword(userID: String, hash: String, keeping tokenHash: String?, now: Date) async throws
    /// Deletes the user, their sessions, settings, status, blocks either way, favourites and ratings (updating the
    /// places' aggregates), friend requests and friendships, invitations to and from them, group memberships (a group
    /// left without members is deleted, one left without an admin makes its longest-standing member admin), personal
    /// collections and notifications, in one transaction; places they added stay, without an owner, and entries they
    /// added to a collection stay, without who added them.
    func delete(userID: String) async throws
    /// Users whose username or display name contains `text` (case-insensitive, taken literally), by username ignoring
    /// case; with `viewerID`, leaving out whoever blocks the viewer or is blocked by them (in the query, so every page
    /// but the last is full).
    func searchUsers(_ text: String, viewerID: String?, page: PageRequest) async throws -> Page<User>

    /// Stores a new session.
    func insert(_ session: Session) async throws
    /// The session with this token hash and the user it signs in, in one read (a request's sign-in costs one); nil
    /// when there is no such session.
    func session(tokenHash: String) async throws -> (session: Session, user: User)?
    /// Ends one session.
    func deleteSession(tokenHash: String) async throws

    /// The user's stored settings; nil when they never saved any (the defaults apply).
    func settings(userID: String) async throws -> UserSettings?
    /// The stored settings of these users, in one read, by user id; those who never saved any are absent.
    func settings(userIDs: [String]) async throws -> [String: UserSettings]
    /// Saves the user's settings whole.
    func save(_ settings: UserSettings, userID: String, now: Date) async throws

    /// Everything stored about the user.
    func export(userID: String) async throws -> AccountExport?

    // MARK: Blocks and statuses

    /// Stores that `blockerID` blocks `blockedID` (an existing block keeps its time) and, in the same transaction, ends
    /// what stands between the two either way: a friendship, a pending friend request, and pending invitations from
    /// one of them to the other.
    func block(blockerID: String, blockedID: String, now: Date) async throws
    /// Ends `blockerID`'s block of `blockedID`; nothing when there is none.
    func unblock(blockerID: String, blockedID: String) async throws
    /// A page of the people `blockerID` blocks, by username ignoring case, then id.
    func blocked(blockerID: String, page: PageRequest) async throws -> Page<BlockedUser>
    /// Who of the two blocks the other, in one read.
    func blocks(between first: String, _ second: String) async throws -> BlockBetween
    /// The ids among `userIDs` of those who block `blockedID`, in one read.
    func blockers(of blockedID: String, among userIDs: [String]) async throws -> Set<String>
    /// Sets (or with nil, clears) the user's status.
    func setStatus(_ status: UserStatus?, userID: String) async throws
    /// The statuses of `userIDs` that `viewerID` may see at `now`, by user id, in one read: their own, and those of
    /// friends and fellow members of a group, unless either blocks the other; never one expired at `now`.
    func statuses(of userIDs: [String], visibleTo viewerID: String, now: Date) async throws -> [String: UserStatus]
}

extension AccountRepository {
    /// Users whose username or display name contains `text`, whoever asks (no block left out).
    public func searchUsers(_ text: String, page: PageRequest) async throws -> Page<User> {
        try await searchUsers(text, viewerID: nil, page: page)
    }
}

/// Everything stored about one person, as `GET /v1/me/export` returns it.
@PublicInit
public struct AccountExport: Sendable, Encodable {
    /// A session, without its token's hash.
    @PublicInit
    public struct SessionInfo: Sendable, Encodable {
        public var createdAt: Date
        public var expiresAt: Date
    }

    /// A favourite and when it was marked.
    @PublicInit
    public struct FavoriteInfo: Sendable, Encodable {
        public var placeId: String
        public var createdAt: Date
    }

    public var account: OwnUser
    public var settings: UserSettings
    public var sessions: [SessionInfo]
    public var favorites: [FavoriteInfo]
    public var ratings: [Rating]
    public var places: [String]
    /// The messages the person wrote in decisions' conversations, oldest first.
    public var messages: [DecisionMessage] = []
    /// The people the person blocks, by username ignoring case.
    public var blocked: [BlockedUser] = []
    /// Their status, expired or not, when they set one.
    public var status: UserStatus?
    /// The photos they added and their picture, oldest first.
    public var photos: [Photo] = []
}
