import Foundation

/// Writes notifications as the recipients asked: only the kinds their settings switch on, listing the channels
/// they chose. It makes them; the repository of the event stores them in the event's transaction.
public struct Notifier: Sendable {
    let accounts: any AccountRepository
    let clock: @Sendable () -> Date

    /// One notification for each recipient who wants to hear about `kind` (in the order given, once each).
    public func notifications(
        _ kind: UserNotification.Kind,
        to recipients: [String],
        message: String,
        subject: UserNotification.Subject
    ) async throws -> [UserNotification] {
        try await audience(recipients).notifications(kind, message: message, subject: subject, now: clock())
    }

    /// The recipients with their settings read now, so notifications can be made later inside a transaction.
    public func audience(_ recipients: [String]) async throws -> Audience {
        Notifier.audience(recipients, settings: try await accounts.settings(userIDs: recipients))
    }

    /// The recipients with the settings already read for them (those without stored settings have the defaults).
    public static func audience(_ recipients: [String], settings stored: [String: UserSettings]) -> Audience {
        var settings: [(String, UserSettings.Notifications)] = []
        var seen = Set<String>()
        for recipient in recipients where seen.insert(recipient).inserted {
            settings.append((recipient, (stored[recipient] ?? UserSettings()).notifications))
        }
        return Audience(recipients: settings)
    }
}

/// People to notify with the preferences they had when it was read; makes notifications without waiting.
public struct Audience: Sendable {
    let recipients: [(id: String, preferences: UserSettings.Notifications)]

    /// One notification for each of `only` (default: all) who wants to hear about `kind`.
    public func notifications(
        _ kind: UserNotification.Kind,
        message: String,
        subject: UserNotification.Subject,
        now: Date,
        only: Set<String>? = nil
    ) -> [UserNotification] {
        recipients.compactMap { recipient in
            guard only?.contains(recipient.id) ?? true, recipient.preferences.wants(kind) else { return nil }
            return UserNotification(
                id: RandomID.make("n-"),
                recipientId: recipient.id,
                kind: kind,
                message: message,
                subject: subject,
                channels: recipient.preferences.channels,
                createdAt: now
            )
        }
    }
}
