/// A person's profile as they change it: each field kept, cleared or set (`PATCH /v1/me`); a registration sets some.
/// Every field is kept unless given.
@PublicInit
public struct ProfilePatch: Sendable, Equatable {
    /// The name shown to others.
    public var displayName: Patch<String> = .keep
    public var bio: Patch<String> = .keep
    public var city: Patch<String> = .keep
    /// An http(s) URL of their picture.
    public var avatarURL: Patch<String> = .keep
    /// Their e-mail address (an account keeps an e-mail or a phone).
    public var email: Patch<String> = .keep
    /// Their phone number in international form.
    public var phone: Patch<String> = .keep
}

/// Creating an account (`POST /v1/auth/register`, `places user create`).
@PublicInit
public struct Registration: Sendable, Equatable {
    public var username: String?
    /// The password exactly as typed (never trimmed).
    public var password: String?
    /// The profile, e-mail and phone it starts with (an e-mail or a phone is required).
    public var profile: ProfilePatch
}

/// Logging in with one of the account's names and its password (`POST /v1/auth/login`). The name is as typed; the
/// service normalises an e-mail or phone as it stores them.
@PublicInit
public struct Credentials: Sendable, Equatable {
    public var name: LoginName
    public var password: String?
}

/// Changing one's password (`POST /v1/me/password`): the current one again, and the new one.
@PublicInit
public struct PasswordChange: Sendable, Equatable {
    public var currentPassword: String?
    public var newPassword: String?
}
