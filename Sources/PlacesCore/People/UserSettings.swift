import GeoIndex

/// A person's preferences. Every field has a default (README, "Settings"); `PUT` starts from the defaults and
/// `PATCH` from the stored settings, and both apply the same field rules.
public struct UserSettings: Sendable, Hashable, Codable {
    /// Distance units for what the CLI prints.
    public enum Units: String, Sendable, Hashable, Codable {
        case mi, km
    }

    /// A default centre for nearby queries.
    @PublicInit
    public struct Location: Sendable, Hashable, Codable {
        public var lat: Double
        public var lon: Double

        /// As a coordinate.
        public var coordinate: Coordinate { Coordinate(latitude: lat, longitude: lon) }
    }

    /// Which notifications reach the person, and how.
    public struct Notifications: Sendable, Hashable, Codable {
        public var push = true
        public var email = true
        public var sms = false
        public var decisionStarted = true
        public var decisionCompleted = true
        public var friendRequests = true
        public var groupInvitations = true

        /// The defaults.
        public init() {}
    }

    /// How apps should present things to the person.
    public struct Accessibility: Sendable, Hashable, Codable {
        public var largerText = false
        public var reducedMotion = false
        public var highContrast = false
        public var screenReaderHints = false

        /// The defaults.
        public init() {}
    }

    /// A BCP-47 language tag (`en`, `pt-BR`, `zh-Hant-TW`); default `en`.
    public var language = "en"
    /// Miles or kilometres; default `mi`.
    public var units = Units.mi
    /// Where nearby queries centre when a request names no point; default none.
    public var defaultLocation: Location?
    /// The radius nearby queries use when a request names none, 0 < r ≤ 20 miles; default 5.
    public var defaultRadiusMiles = NearbyQuery.defaultRadiusMiles
    /// Notification preferences.
    public var notifications = Notifications()
    /// Accessibility preferences.
    public var accessibility = Accessibility()

    /// The defaults.
    public init() {}

    /// These settings with the patch applied: a cleared field goes back to its default, a set one is checked.
    public func applying(_ patch: SettingsPatch) throws(PlacesError) -> UserSettings {
        var settings = self
        let defaults = UserSettings()
        switch patch.language {
        case .keep: break
        case .clear: settings.language = defaults.language
        case .set(let raw):
            // An empty text is not a value.
            guard let text = try TextRules.text(raw, field: "language", limit: 35) else {
                throw .invalid("language", "language must be a BCP-47 tag such as en or pt-BR")
            }
            settings.language = try UserSettings.languageTag(text)
        }
        settings.units = patch.units.applied(to: settings.units) ?? defaults.units
        switch patch.defaultLocation {
        case .keep: break
        case .clear: settings.defaultLocation = nil
        case .set(let location):
            do {
                try location.coordinate.check()
            } catch {
                throw .invalid("defaultLocation.\(error.field ?? "")", error.message)
            }
            settings.defaultLocation = location
        }
        if case .set(let radius) = patch.defaultRadiusMiles {
            guard radius > 0, radius <= NearbyQuery.maximumRadiusMiles else {
                throw .invalid("defaultRadiusMiles", "defaultRadiusMiles must be more than 0 and at most 20")
            }
        }
        settings.defaultRadiusMiles = patch.defaultRadiusMiles.applied(to: settings.defaultRadiusMiles) ?? defaults.defaultRadiusMiles
        switch patch.notifications {
        case .keep: break
        case .clear: settings.notifications = Notifications()
        case .set(let flags): settings.notifications = flags.applied(to: settings.notifications)
        }
        switch patch.accessibility {
        case .keep: break
        case .clear: settings.accessibility = Accessibility()
        case .set(let flags): settings.accessibility = flags.applied(to: settings.accessibility)
        }
        return settings
    }

    /// Checks a BCP-47 tag's shape: a 2–3 letter (or 4–8 letter) language, then subtags of 1–8 letters or digits.
    static func languageTag(_ text: String) throws(PlacesError) -> String {
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (2...8).contains(first.count),
            first.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }),
            subtags.dropFirst().allSatisfy({ subtag in
                (1...8).contains(subtag.count)
                    && subtag.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) }
            })
        else {
            throw .invalid("language", "language must be a BCP-47 tag such as en, pt-BR or zh-Hant-TW")
        }
        return text
    }
}
