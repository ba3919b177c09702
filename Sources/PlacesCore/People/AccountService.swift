import Foundation
import Synchronization

/// Accounts, sessions and settings: sign-up, login (throttled), the profile, passwords and export.
///
/// The clock is injected (tests move it); tokens always come from the system's secure generator.
public struct AccountService: Sendable {
    /// How long a token is accepted by default: 30 days.
    public static let defaultSessionLifetime: TimeInterval = 30 * 24 * 60 * 60

    let repository: any AccountRepository
    /// The conversations, for the messages an export lists.
    private let messages: any MessageRepository
    /// Photos, for the export (nil where a test wires none).
    private let photos: (any PhotoRepository)?
    private let hasher: any PasswordHasher
    private let throttle: LoginThrottle
    let clock: @Sendable () -> Date
    private let sessionLifetime: TimeInterval
    /// A hash no password matches, checked when a login names nobody, so that case takes as long as a wrong password.
    private let decoyHash: DecoyHash

    /// Makes the service; every hash and password check waits its turn in `hashing`, and logins and registrations are
    /// counted by `throttle`.
    public init(
        repository: any AccountRepository,
        messages: any MessageRepository,
        photos: (any PhotoRepository)? = nil,
        hasher: any PasswordHasher,
        throttle: LoginThrottle,
        hashing: HashingQueue = HashingQueue(),
        sessionLifetime: TimeInterval = AccountService.defaultSessionLifetime,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.repository = repository
        self.messages = messages
        self.photos = photos
        self.hasher = QueuedPasswordHasher(hasher: hasher, queue: hashing)
        self.throttle = throttle
        self.sessionLifetime = sessionLifetime
        self.clock = clock
        decoyHash = DecoyHash(hasher: hasher)
    }

    /// Creates an account from a registration sent from `clientAddress` (registrations are throttled per address).
    public func register(_ registration: Registration, clientAddress: String) async throws -> User {
        let username = try AccountRules.username(registration.username)
        // Absent or null is none; anything else must be a valid address or number (an empty one is refused, not dropped).
        let email = try registration.profile.email.applied(to: nil).map { text throws(PlacesError) in try AccountRules.email(text) }
        let phone = try registration.profile.phone.applied(to: nil).map { text throws(PlacesError) in try AccountRules.phone(text) }
        guard email != nil || phone != nil else { throw PlacesError.invalid("email", "give an email or a phone number (or both)") }
        let password = registration.password
        try AccountRules.checkPassword(password, username: username)
        let profile = try AccountRules.applying(registration.profile, to: User.Profile())
        let now = clock()
        let attempt = try await throttle.beginRegistration(address: clientAddress, now: now)
        let passwordHash: String
        do {
            passwordHash = try await hasher.hash(password ?? "")
        } catch {
            // Refused before hashing (the server is busy): that was no registration. A slot that cannot be given back
            // (the database is gone too) stays counted, which errs on the safe side; the refusal is what to answer.
            try? await throttle.withdraw(attempt)
            throw error
        }
        let user = User(
            id: RandomID.make("u-"),
            username: username,
            email: email,
            phone: phone,
            passwordHash: passwordHash,
            profile: profile,
            createdAt: now,
            updatedAt: now
        )
        try await repository.insert(user)
        return user
    }

    /// Checks a login and issues a token; unknown accounts and wrong passwords answer alike and take as long.
    public func login(_ credentials: Credentials, clientAddress: String) async throws -> IssuedToken {
        let login: LoginName
        let field: String
        switch credentials.name {
        case .username(let name):
            (login, field) = (.username(name), "username")
        case .email(let email):
            (login, field) = (.email(try AccountRules.email(email)), "email")
        case .phone(let phone):
            (login, field) = (.phone(try AccountRules.phone(phone)), "phone")
        }
        guard let password = credentials.password, !password.isEmpty else {
            throw PlacesError.invalid("password", "password is required")
        }
        let now = clock()
        let user = try await repository.user(login: login)
        // One account, one count: its username, e-mail and phone share it. An unknown name is counted as typed.
        let attempt = try await throttle.begin(account: user.map { "user:" + $0.id } ?? login.key, address: clientAddress, now: now)
        guard try await passwordMatches(password, user?.passwordHash, attempt: attempt), let user else {
            throw PlacesError.unauthorized("wrong \(field) or password")
        }
        return try await issueToken(for: user, now: now)
    }

    /// Checks `password` against `hash` (a decoy when nil, so an unknown account takes as long) for a counted attempt:
    /// a match gives the attempt's slot back, a mismatch leaves it counted, and a check the server refused (busy)
    /// counts for nothing.
    private func passwordMatches(_ password: String, _ hash: String?, attempt: LoginThrottle.Attempt) async throws -> Bool {
        // A password longer than bcrypt reads could match a hash by its first 72 bytes only: never accept one.
        let fits = password.utf8.count <= AccountRules.maximumPasswordBytes
        let matches: Bool
        do {
            let decoy = try await decoyHash.value()
            matches = try await hasher.verify(fits ? password : "", against: hash ?? decoy) && fits && hash != nil
        } catch {
            // As for a registration: a slot that cannot be given back stays counted, and the refusal is the answer.
            try? await throttle.withdraw(attempt)
            throw error
        }
        if matches { try await throttle.succeeded(attempt) }
        return matches
    }

    private func issueToken(for user: User, now: Date) async throws -> IssuedToken {
        let token = SessionToken.generate()
        let expiresAt = now.addingTimeInterval(sessionLifetime)
        try await repository.insert(Session(tokenHash: SessionToken.hash(token), userID: user.id, createdAt: now, expiresAt: expiresAt))
        return IssuedToken(token: token, expiresAt: expiresAt)
    }

    /// The caller a bearer token signs in, or `unauthorized` when it is unknown, revoked or expired.
    public func authenticate(token: String) async throws -> Caller {
        let tokenHash = SessionToken.hash(token)
        // A session ends with its account, so a session found always has its user.
        guard let (session, user) = try await repository.session(tokenHash: tokenHash) else {
            throw PlacesError.unauthorized("the token is unknown or was revoked; log in again")
        }
        guard session.expiresAt > clock() else {
            try await repository.deleteSession(tokenHash: tokenHash)
            throw PlacesError.unauthorized("the token expired; log in again")
        }
        return Caller(user: user, tokenHash: tokenHash)
    }

    /// Ends the caller's session.
    public func logout(_ caller: Caller) async throws {
        try await repository.deleteSession(tokenHash: caller.tokenHash)
    }

    /// Edits the caller's profile (and e-mail or phone); at least one of e-mail and phone stays.
    public func updateProfile(_ caller: Caller, _ patch: ProfilePatch) async throws -> User {
        var user = caller.user
        user.profile = try AccountRules.applying(patch, to: user.profile)
        if patch.email.changes {
            user.email = try patch.email.applied(to: nil).map { text throws(PlacesError) in try AccountRules.email(text) }
        }
        if patch.phone.changes {
            user.phone = try patch.phone.applied(to: nil).map { text throws(PlacesError) in try AccountRules.phone(text) }
        }
        guard user.email != nil || user.phone != nil else {
            throw PlacesError.invalid(patch.email.changes ? "email" : "phone", "an account keeps an email or a phone number")
        }
        user.updatedAt = clock()
        try await repository.update(user)
        return user
    }

    /// Changes the caller's password after checking the current one, and ends their other sessions.
    public func changePassword(_ caller: Caller, _ change: PasswordChange) async throws {
        guard let current = change.currentPassword, !current.isEmpty else {
            throw PlacesError.invalid("currentPassword", "currentPassword is required")
        }
        let new = change.newPassword
        try AccountRules.checkPassword(new, username: caller.user.username, field: "newPassword")
        let now = clock()
        try await confirmPassword(caller, current, field: "currentPassword", now: now)
        try await repository.updatePassword(
            userID: caller.user.id,
            hash: try await hasher.hash(new ?? ""),
            keeping: caller.tokenHash,
            now: now
        )
    }

    /// Deletes the caller's account and everything personal, once they gave their password again; the places they
    /// added stay, without an owner.
    public func deleteAccount(_ caller: Caller, password: String?) async throws {
        guard let password, !password.isEmpty else {
            throw PlacesError.invalid("password", "password is required: deleting an account asks for it again")
        }
        try await confirmPassword(caller, password, field: "password", now: clock())
        try await repository.delete(userID: caller.user.id)
    }

    /// Checks the signed-in caller's password again before a change that a stolen token must not make (403 when
    /// wrong). Guesses are throttled per account like logins, whatever address they come from.
    private func confirmPassword(_ caller: Caller, _ password: String, field: String, now: Date) async throws {
        let attempt = try await throttle.begin(account: "user:" + caller.user.id, address: "password-check", now: now)
        guard try await passwordMatches(password, caller.user.passwordHash, attempt: attempt) else {
            throw PlacesError(.forbidden, "\(field) is wrong", field: field)
        }
    }

    /// Everything stored about the caller, the messages they wrote included.
    public func export(_ caller: Caller) async throws -> AccountExport {
        guard var export = try await repository.export(userID: caller.user.id) else {
            throw PlacesError.unauthorized("the account no longer exists")
        }
        export.messages = try await messages.messages(authorID: caller.user.id)
        if let photos { export.photos = try await photos.photos(userID: caller.user.id) }
        return export
    }

    /// People whose username or display name contains `text`, public fields only; for a `viewer`, without those a
    /// block stands between, and with the statuses the viewer may see.
    public func searchUsers(_ text: String?, viewer: User? = nil, page: PageRequest) async throws -> Page<PublicUser> {
        guard let text = text?.trimmingWhitespace(), !text.isEmpty else {
            throw PlacesError.invalid("q", "q is required: part of a username or display name")
        }
        guard text.count <= 80 else { throw PlacesError.invalid("q", "q is longer than 80 characters") }
        let users = try await repository.searchUsers(text.nfc, viewerID: viewer?.id, page: page)
        var items = users.items.map(PublicUser.init)
        if let viewer { items = try await repository.showingStatuses(items, to: viewer.id, now: clock()) }
        return Page(items: items, nextCursor: users.nextCursor)
    }

    /// The user a username names, or `not_found`.
    public func user(username: String) async throws -> User {
        guard let user = try await repository.user(login: .username(username)) else {
            throw PlacesError.notFound("no user named \(PlacesError.quoted(username))")
        }
        return user
    }

    // MARK: - Settings

    /// The user's settings (the defaults until they save some).
    public func settings(userID: String) async throws -> UserSettings {
        try await repository.settings(userID: userID) ?? UserSettings()
    }

    /// Replaces the user's settings: the fields given, the defaults for the rest.
    public func replaceSettings(userID: String, _ patch: SettingsPatch) async throws -> UserSettings {
        let settings = try UserSettings().applying(patch)
        try await repository.save(settings, userID: userID, now: clock())
        return settings
    }

    /// Changes the fields given and keeps the rest.
    public func updateSettings(userID: String, _ patch: SettingsPatch) async throws -> UserSettings {
        let settings = try await self.settings(userID: userID).applying(patch)
        try await repository.save(settings, userID: userID, now: clock())
        return settings
    }

}

/// A hash of a random secret at the hasher's cost, made once on first use.
final class DecoyHash: Sendable {
    private let hasher: any PasswordHasher
    private let task = Mutex<Task<String, any Error>?>(nil)

    init(hasher: any PasswordHasher) {
        self.hasher = hasher
    }

    func value() async throws -> String {
        let hasher = hasher
        let task = task.withLock { task in
            if let task { return task }
            let made = Task { try await hasher.hash(SessionToken.generate()) }
            task = made
            return made
        }
        return try await task.value
    }
}
