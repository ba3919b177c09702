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
    /// Deletes the user, their sessions, settings, favourites and ratings (updating the places' aggregates), friend
    /// requests and friendships, invitations to and from them, group memberships (a group left without members is
    /// deleted, one left without an admin makes its longest-standing member admin), personal collections and
    /// notifications, in one transaction; places they added stay, without an owner, and entries they added to a
    /// collection stay, without who added them.
    func delete(userID: String) async throws
    /// Users whose username or display name contains `text` (case-insensitive, taken literally), by username ignoring
    /// case.
    func searchUsers(_ text: String, page: PageRequest) async throws -> Page<User>

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
}
