import Foundation

extension StoredText {
    /// The column of `user_account` that finds the account a login names (both engines' schemas name them alike),
    /// and the value it holds for it: a username by its case-folded key, an e-mail or a phone as normalised.
    public static func accountColumn(of login: LoginName) -> (column: String, value: String) {
        switch login {
        case .username(let name): ("username_key", AccountRules.usernameKey(name))
        case .email(let email): ("email", email)
        case .phone(let phone): ("phone", phone)
        }
    }

    /// The names of `user` that no other account may hold, each with the request field it comes from and the column
    /// of `user_account` that holds it (as `accountColumn(of:)` finds them); nil where the account has none.
    public static func uniqueNames(of user: User) -> [(field: String, column: String, value: String?)] {
        [
            ("username", "username_key", AccountRules.usernameKey(user.username)),
            ("email", "email", user.email),
            ("phone", "phone", user.phone),
        ]
    }

    /// A person's settings read back from the JSON text both engines store; `internal_error` naming the user when it
    /// cannot be.
    public static func decodeSettings(_ text: String, userID: String) throws(PlacesError) -> UserSettings {
        do {
            return try JSONDecoder().decode(UserSettings.self, from: Data(text.utf8))
        } catch {
            throw PlacesError(.internalError, "stored settings of user '\(userID)' are unreadable")
        }
    }

    /// A notification read back from its stored columns (the kind as its raw value, the subject and the channels as
    /// JSON text); `internal_error` naming the notification when it cannot be.
    public static func decodeNotification(
        id: String,
        recipientID: String,
        kind kindText: String,
        message: String,
        subject subjectText: String,
        channels channelsText: String,
        createdAt: Date,
        readAt: Date?
    ) throws(PlacesError) -> UserNotification {
        guard let kind = UserNotification.Kind(rawValue: kindText) else {
            throw PlacesError(.internalError, "stored notification '\(id)' has an unknown kind '\(kindText)'")
        }
        let decoder = JSONDecoder()
        let subject: UserNotification.Subject
        let channels: [String]
        do {
            subject = try decoder.decode(UserNotification.Subject.self, from: Data(subjectText.utf8))
            channels = try decoder.decode([String].self, from: Data(channelsText.utf8))
        } catch {
            throw PlacesError(.internalError, "stored notification '\(id)' is unreadable")
        }
        return UserNotification(
            id: id,
            recipientId: recipientID,
            kind: kind,
            message: message,
            subject: subject,
            channels: channels,
            createdAt: createdAt,
            readAt: readAt
        )
    }
}
