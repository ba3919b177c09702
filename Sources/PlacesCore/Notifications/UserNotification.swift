import Foundation

/// Something that happened which a person should hear about, kept until they read it.
@PublicInit
public struct UserNotification: Sendable, Hashable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Someone asked to be friends.
        case friendRequest
        /// Someone invited the person into a group.
        case groupInvitation
        /// A decision the person takes part in started.
        case decisionStarted
        /// A decision the person took part in ended with a result.
        case decisionCompleted
        /// A decision's deadline is an hour away and the person has not voted.
        case decisionReminder
        /// An admin of a group the person belongs to sent the group an alert (readers of releases before it pass over
        /// it: see `sqlList`).
        case adminAlert
    }

    /// What the notification is about: the ids an app needs to open it.
    @PublicInit
    public struct Subject: Sendable, Hashable, Codable {
        public var userId: String?
        public var groupId: String?
        public var decisionId: String?
        public var placeId: String?
    }

    /// `n-` and 16 hex digits.
    public var id: String
    /// Who it is for.
    public var recipientId: String
    /// What happened.
    public var kind: Kind
    /// One sentence for people.
    public var message: String
    /// The ids it is about.
    public var subject: Subject
    /// How the recipient asked to be told besides in the app (`push`, `email`, `sms`), from their settings.
    public var channels: [String]
    /// When it was made.
    public var createdAt: Date
    /// When the recipient read it; absent while unread.
    public var readAt: Date?
}

extension UserSettings.Notifications {
    /// True when the person wants to hear about `kind`. A reminder belongs to a started decision.
    public func wants(_ kind: UserNotification.Kind) -> Bool {
        switch kind {
        case .friendRequest: friendRequests
        case .groupInvitation: groupInvitations
        case .decisionStarted, .decisionReminder: decisionStarted
        case .decisionCompleted: decisionCompleted
        case .adminAlert: adminAlerts
        }
    }

    /// The delivery channels switched on, besides the app itself.
    public var channels: [String] {
        [("push", push), ("email", email), ("sms", sms)].filter(\.1).map(\.0)
    }
}

extension UserNotification.Kind {
    /// The kinds this release knows, as a list of SQL text literals for `kind IN (…)`. Readers keep to them, so a
    /// notification of a kind a newer release added (while instances of two releases run side by side) is passed over,
    /// in lists, counts and streams alike, rather than making the whole list unreadable.
    public static let sqlList = allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
}
