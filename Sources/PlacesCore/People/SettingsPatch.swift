/// A change of a person's settings (`PATCH` and `PUT /v1/me/settings`, `places settings set`): each field kept, cleared
/// back to its default, or set. `PUT` applies it to the defaults, `PATCH` to the stored settings. Every field is kept
/// unless given.
@PublicInit
public struct SettingsPatch: Sendable, Equatable {
    /// A BCP-47 language tag, as sent.
    public var language: Patch<String> = .keep
    /// Miles or kilometres.
    public var units: Patch<UserSettings.Units> = .keep
    /// Where nearby queries centre when a request names no point (cleared: none).
    public var defaultLocation: Patch<UserSettings.Location> = .keep
    /// The radius nearby queries use when a request names none.
    public var defaultRadiusMiles: Patch<Double> = .keep
    /// Notification preferences: set changes the flags given, clear puts them all back to their defaults.
    public var notifications: Patch<Flags<UserSettings.Notifications>> = .keep
    /// Accessibility preferences, likewise.
    public var accessibility: Patch<Flags<UserSettings.Accessibility>> = .keep
    /// What the person can eat (the whole list; cleared: none).
    public var dietaryNeeds: Patch<[DietaryNeed]> = .keep
    /// The highest price level the person pays (cleared: none).
    public var maxPrice: Patch<Int> = .keep
    /// Whether the default location may place the person in a decision's meet.
    public var shareLocationForMeet: Patch<Bool> = .keep

    /// Some of a group of on/off preferences, by name; a flag cleared goes back to its default.
    public struct Flags<Preferences: Sendable>: Sendable, Equatable {
        /// The flags given, each kept, cleared or set.
        public var changes: [Flag: Patch<Bool>]

        /// One flag of the group.
        public struct Flag: Sendable, Hashable {
            let keyPath: any WritableKeyPath<Preferences, Bool> & Sendable
            /// Its name, as the API spells it.
            public let name: String

            public static func == (a: Flag, b: Flag) -> Bool { a.name == b.name }
            public func hash(into hasher: inout Hasher) { hasher.combine(name) }
        }

        /// Makes a set of changes.
        public init(_ changes: [Flag: Patch<Bool>] = [:]) {
            self.changes = changes
        }

        /// The preferences with these changes, starting from `current` (`defaults` for the flags cleared).
        func applied(to current: Preferences, defaults: Preferences) -> Preferences {
            var preferences = current
            for (flag, patch) in changes {
                preferences[keyPath: flag.keyPath] = patch.applied(to: current[keyPath: flag.keyPath]) ?? defaults[keyPath: flag.keyPath]
            }
            return preferences
        }
    }
}

extension SettingsPatch.Flags where Preferences == UserSettings.Notifications {
    /// Every notification flag, by the API's name.
    public static let all: [Flag] = [
        Flag(keyPath: \.push, name: "push"), Flag(keyPath: \.email, name: "email"), Flag(keyPath: \.sms, name: "sms"),
        Flag(keyPath: \.decisionStarted, name: "decisionStarted"), Flag(keyPath: \.decisionCompleted, name: "decisionCompleted"),
        Flag(keyPath: \.friendRequests, name: "friendRequests"), Flag(keyPath: \.groupInvitations, name: "groupInvitations"),
        Flag(keyPath: \.adminAlerts, name: "adminAlerts"),
    ]

    func applied(to current: UserSettings.Notifications) -> UserSettings.Notifications {
        applied(to: current, defaults: UserSettings.Notifications())
    }
}

extension SettingsPatch.Flags where Preferences == UserSettings.Accessibility {
    /// Every accessibility flag, by the API's name.
    public static let all: [Flag] = [
        Flag(keyPath: \.largerText, name: "largerText"), Flag(keyPath: \.reducedMotion, name: "reducedMotion"),
        Flag(keyPath: \.highContrast, name: "highContrast"), Flag(keyPath: \.screenReaderHints, name: "screenReaderHints"),
    ]

    func applied(to current: UserSettings.Accessibility) -> UserSettings.Accessibility {
        applied(to: current, defaults: UserSettings.Accessibility())
    }
}
