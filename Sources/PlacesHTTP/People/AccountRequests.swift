import PlacesCore

// Request bodies of /v1/auth and /v1/me turned into Core's commands.

extension ProfilePatch: RequestCommand {
    /// The fields `PATCH /v1/me` reads.
    public static let fields: Set<String> = ["displayName", "bio", "city", "avatarURL", "email", "phone"]

    /// The change a `PATCH /v1/me` body asks for: absent keeps a field, null clears it.
    public init(body: FieldReader) throws(PlacesError) {
        self.init(
            displayName: try body.patchText("displayName"),
            bio: try body.patchText("bio"),
            city: try body.patchText("city"),
            avatarURL: try body.patchText("avatarURL"),
            email: try body.patchText("email"),
            phone: try body.patchText("phone")
        )
    }
}

extension Registration: RequestCommand {
    /// The fields `POST /v1/auth/register` reads.
    public static let fields = ProfilePatch.fields.union(["username", "password"])

    /// The account a registration body asks for.
    public init(body: FieldReader) throws(PlacesError) {
        self.init(username: try body.rawText("username"), password: try body.rawText("password"), profile: try ProfilePatch(body: body))
    }
}

extension Credentials: RequestCommand {
    /// The fields `POST /v1/auth/login` reads.
    public static let fields: Set<String> = ["username", "email", "phone", "password"]

    /// The login a body asks for: exactly one of username, email or phone, and the password.
    public init(body: FieldReader) throws(PlacesError) {
        for name in ["username", "email", "phone"] where body.isNull(name) {
            throw .invalid(name, "\(name) must be text: leave out the names you do not log in with")
        }
        let names = ["username", "email", "phone"].filter { body.has($0) }
        guard names.count == 1, let field = names.first else {
            throw .invalid("username", "give exactly one of username, email or phone")
        }
        let text = try body.rawText(field) ?? ""
        let name: LoginName =
            switch field {
            case "username": .username(text)
            case "email": .email(text)
            default: .phone(text)
            }
        self.init(name: name, password: try body.rawText("password"))
    }
}

extension PasswordChange: RequestCommand {
    /// The fields `POST /v1/me/password` reads.
    public static let fields: Set<String> = ["currentPassword", "newPassword"]

    /// The change a body asks for.
    public init(body: FieldReader) throws(PlacesError) {
        self.init(currentPassword: try body.rawText("currentPassword"), newPassword: try body.rawText("newPassword"))
    }
}

extension SetStatus: RequestCommand {
    /// The fields `PUT /v1/me/status` reads.
    public static let fields: Set<String> = ["text", "expiresAt"]

    /// The status a body asks for.
    public init(body: FieldReader) throws(PlacesError) {
        self.init(text: try body.rawText("text"), expiresAt: try body.instant("expiresAt"))
    }
}
