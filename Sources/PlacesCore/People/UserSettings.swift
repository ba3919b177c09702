import GeoIndex

/// A person's preferences. Every field has a default (README, "Settings"); `PUT` starts from the defaults and
/// `PATCH` from the stored settings, and both apply the same field rules.
public struct UserSettings: Sendable, Hashable, Codable {
    /// Distance units for what the CLI prints.
    public enum Units: String, Sendable, Hashable, Codable {
        case mi, km
    }

    /// A default centre for nearby queries.
    public struct Location: Sendable, Hashable, Codable {
        public var lat: Double
        public var lon: Double

        /// Makes a location.
        public init(lat: Double, lon: Double) {
            self.lat = lat
            self.lon = lon
        }

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

        static let fields: Set<String> = [
            "push", "email", "sms", "decisionStarted", "decisionCompleted", "friendRequests", "groupInvitations",
        ]
    }

    /// How apps should present things to the person.
    public struct Accessibility: Sendable, Hashable, Codable {
        public var largerText = false
        public var reducedMotion = false
        public var highContrast = false
        public var screenReaderHints = false

        /// The defaults.
        public init() {}

        static let fields: Set<String> = ["largerText", "reducedMotion", "highContrast", "screenReaderHints"]
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

    /// The top-level field names.
    public static let fields: Set<String> = [
        "language", "units", "defaultLocation", "defaultRadiusMiles", "notifications", "accessibility",
    ]

    /// These settings with the fields `reader` names applied; `null` puts a field back to its default.
    public func applying(_ reader: FieldReader) throws(PlacesError) -> UserSettings {
        var settings = self
        let defaults = UserSettings()
        // null puts a field back to its default; an empty text is not a value.
        if reader.has("language") {
            if reader.isNull("language") {
                settings.language = defaults.language
            } else {
                guard let text = try reader.text("language", limit: 35) else {
                    throw .invalid("language", "language must be a BCP-47 tag such as en or pt-BR")
                }
                settings.language = try UserSettings.languageTag(text)
            }
        }
        if reader.has("units") {
            if reader.isNull("units") {
                settings.units = defaults.units
            } else {
                guard let text = try reader.text("units", limit: 10), let units = Units(rawValue: text) else {
                    throw .invalid("units", "units must be mi or km")
                }
                settings.units = units
            }
        }
        if reader.has("defaultLocation") {
            if let location = try reader.object("defaultLocation", allowed: ["lat", "lon"]) {
                guard let lat = try location.number("lat"), let lon = try location.number("lon") else {
                    throw .invalid("defaultLocation", "defaultLocation needs lat and lon")
                }
                do {
                    try Coordinate(latitude: lat, longitude: lon).check()
                } catch {
                    throw .invalid("defaultLocation.\(error.field ?? "")", error.message)
                }
                settings.defaultLocation = Location(lat: lat, lon: lon)
            } else {
                settings.defaultLocation = nil
            }
        }
        if reader.has("defaultRadiusMiles") {
            if let radius = try reader.number("defaultRadiusMiles") {
                guard radius > 0, radius <= NearbyQuery.maximumRadiusMiles else {
                    throw .invalid("defaultRadiusMiles", "defaultRadiusMiles must be more than 0 and at most 20")
                }
                settings.defaultRadiusMiles = radius
            } else {
                settings.defaultRadiusMiles = defaults.defaultRadiusMiles
            }
        }
        if reader.has("notifications") {
            var notifications = Notifications()
            if let flags = try reader.object("notifications", allowed: Notifications.fields) {
                notifications = settings.notifications
                func flag(_ name: String, _ keyPath: WritableKeyPath<Notifications, Bool>) throws(PlacesError) {
                    guard flags.has(name) else { return }
                    do {
                        notifications[keyPath: keyPath] = try flags.bool(name) ?? Notifications()[keyPath: keyPath]
                    } catch {
                        throw .invalid("notifications.\(name)", error.message)
                    }
                }
                try flag("push", \.push)
                try flag("email", \.email)
                try flag("sms", \.sms)
                try flag("decisionStarted", \.decisionStarted)
                try flag("decisionCompleted", \.decisionCompleted)
                try flag("friendRequests", \.friendRequests)
                try flag("groupInvitations", \.groupInvitations)
            }
            settings.notifications = notifications
        }
        if reader.has("accessibility") {
            var accessibility = Accessibility()
            if let flags = try reader.object("accessibility", allowed: Accessibility.fields) {
                accessibility = settings.accessibility
                func flag(_ name: String, _ keyPath: WritableKeyPath<Accessibility, Bool>) throws(PlacesError) {
                    guard flags.has(name) else { return }
                    do {
                        accessibility[keyPath: keyPath] = try flags.bool(name) ?? Accessibility()[keyPath: keyPath]
                    } catch {
                        throw .invalid("accessibility.\(name)", error.message)
                    }
                }
                try flag("largerText", \.largerText)
                try flag("reducedMotion", \.reducedMotion)
                try flag("highContrast", \.highContrast)
                try flag("screenReaderHints", \.screenReaderHints)
            }
            settings.accessibility = accessibility
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
