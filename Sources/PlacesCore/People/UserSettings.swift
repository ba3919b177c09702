import GeoIndex

/// A person's preferences. Every field has a default (README, "Settings"); `PUT` starts from the defaults and
/// `PATCH` from the stored settings, and both apply the same field rules. Settings stored by an earlier release read
/// the fields it did not know as their defaults (each field is decoded when present), so a release may add fields.
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
        /// Alerts a group's admins send to its members.
        public var adminAlerts = true

        /// The defaults.
        public init() {}

        /// Reads the flags stored or sent; a missing one is its default.
        public init(from decoder: any Decoder) throws {
            self = try UserSettings.flags(decoder, SettingsPatch.Flags<Notifications>.all, defaults: Notifications())
        }
    }

    /// How apps should present things to the person.
    public struct Accessibility: Sendable, Hashable, Codable {
        public var largerText = false
        public var reducedMotion = false
        public var highContrast = false
        public var screenReaderHints = false

        /// The defaults.
        public init() {}

        /// Reads the flags stored or sent; a missing one is its default.
        public init(from decoder: any Decoder) throws {
            self = try UserSettings.flags(decoder, SettingsPatch.Flags<Accessibility>.all, defaults: Accessibility())
        }
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
    /// What the person can eat, in the list's order, each once; default none.
    public var dietaryNeeds: [DietaryNeed] = []
    /// The highest price level (1–4) the person pays; default none.
    public var maxPrice: Int?
    /// True when the person's `defaultLocation` may be an origin of a decision's meet among its participants; default
    /// false. No decision reads it yet: candidates from the participants' locations are still to come.
    public var shareLocationForMeet = false

    /// The defaults.
    public init() {}

    /// Reads settings stored or sent; a field missing (one an earlier release did not know) is its default.
    public init(from decoder: any Decoder) throws {
        let stored = try decoder.container(keyedBy: CodingKeys.self)
        language = try stored.decodeIfPresent(String.self, forKey: .language) ?? language
        units = try stored.decodeIfPresent(Units.self, forKey: .units) ?? units
        defaultLocation = try stored.decodeIfPresent(Location.self, forKey: .defaultLocation)
        defaultRadiusMiles = try stored.decodeIfPresent(Double.self, forKey: .defaultRadiusMiles) ?? defaultRadiusMiles
        notifications = try stored.decodeIfPresent(Notifications.self, forKey: .notifications) ?? notifications
        accessibility = try stored.decodeIfPresent(Accessibility.self, forKey: .accessibility) ?? accessibility
        dietaryNeeds = try stored.decodeIfPresent([DietaryNeed].self, forKey: .dietaryNeeds) ?? dietaryNeeds
        maxPrice = try stored.decodeIfPresent(Int.self, forKey: .maxPrice)
        shareLocationForMeet = try stored.decodeIfPresent(Bool.self, forKey: .shareLocationForMeet) ?? shareLocationForMeet
    }

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
        // Each need once, in the list's order, however they were sent.
        settings.dietaryNeeds = patch.dietaryNeeds.applied(to: settings.dietaryNeeds).map { needs in DietaryNeed.allCases.filter(needs.contains) }
            ?? defaults.dietaryNeeds
        switch patch.maxPrice {
        case .keep: break
        case .clear: settings.maxPrice = nil
        case .set(let level):
            guard (1...4).contains(level) else { throw .invalid("maxPrice", "maxPrice must be a price level from 1 to 4") }
            settings.maxPrice = level
        }
        settings.shareLocationForMeet = patch.shareLocationForMeet.applied(to: settings.shareLocationForMeet) ?? defaults.shareLocationForMeet
        return settings
    }

    /// A group of on/off preferences as stored or sent: each flag of `all` that is present, the rest `defaults`'.
    static func flags<Preferences>(
        _ decoder: any Decoder,
        _ all: [SettingsPatch.Flags<Preferences>.Flag],
        defaults: Preferences
    ) throws -> Preferences {
        let stored = try decoder.container(keyedBy: FlagKey.self)
        var preferences = defaults
        for flag in all {
            if let value = try stored.decodeIfPresent(Bool.self, forKey: FlagKey(stringValue: flag.name)) { preferences[keyPath: flag.keyPath] = value }
        }
        return preferences
    }

    /// A flag's name as a key.
    private struct FlagKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
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
