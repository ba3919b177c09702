import Foundation

/// A short line a person shows their friends and fellow group members, until it expires.
@PublicInit
public struct UserStatus: Sendable, Hashable, Codable {
    /// The longest status, in characters.
    public static let maximumLength = 80

    /// One line of text: trimmed, no control, bidirectional or hidden characters, 1 to 80 characters.
    public var text: String
    /// When it stops showing; none keeps it until it is cleared or replaced.
    public var expiresAt: Date?

    /// The status a command asks for, checked against the text rules and the clock: the text is required, an expiry
    /// must lie in the future.
    public static func checked(_ command: SetStatus, now: Date) throws(PlacesError) -> UserStatus {
        guard let text = try TextRules.shownName(command.text, field: "text", limit: maximumLength) else {
            throw .invalid("text", "text is required: 1 to \(maximumLength) characters")
        }
        if let expiresAt = command.expiresAt, expiresAt <= now {
            throw .invalid("expiresAt", "expiresAt must be in the future")
        }
        return UserStatus(text: text, expiresAt: command.expiresAt)
    }

    /// True while it shows.
    public func shows(at now: Date) -> Bool {
        expiresAt.map { $0 > now } ?? true
    }
}

/// `PUT /v1/me/status`: the text and when it expires.
@PublicInit
public struct SetStatus: Sendable, Hashable {
    /// The text as sent.
    public var text: String?
    /// When it stops showing; nil for never.
    public var expiresAt: Date?
}
