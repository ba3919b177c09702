import ArgumentParser
import Foundation
import PlacesCore
import PlacesHTTP
import PlacesSQLite

extension Places {
    /// `places user …`: accounts, on the database file.
    struct UserCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "user",
            abstract: "Manage accounts on the database file.",
            subcommands: [Create.self]
        )

        /// `places user create`: an account, with the same rules as `POST /v1/auth/register`.
        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Create an account. The password is read from standard input (one line), never from a flag."
            )

            @Option(name: .long, help: "3–32 letters, digits, '_' or '.'.")
            var username: String

            @Option(name: .long, help: "E-mail address (an email or a phone is required).")
            var email: String?

            @Option(name: .long, help: "Phone number in international form, e.g. +44 20 7946 0958.")
            var phone: String?

            @Option(name: .long, help: "The name shown to others.")
            var displayName: String?

            @Flag(name: .long, help: "Print the account as the API's JSON.")
            var json = false

            @OptionGroup var database: AccountDatabaseOptions

            func run() async throws {
                do {
                    guard let password = readLine(strippingNewline: true) else {
                        throw PlacesError.invalid("password", "send the password on standard input, e.g. `printf '%s\\n' \"$PW\" | places user create …`")
                    }
                    let registration = Registration(
                        username: username,
                        password: password,
                        profile: ProfilePatch(
                            displayName: displayName.map(Patch.set) ?? .keep,
                            email: email.map(Patch.set) ?? .keep,
                            phone: phone.map(Patch.set) ?? .keep
                        )
                    )
                    let accounts = try await database.accounts()
                    let user = try await accounts.register(registration, clientAddress: "command line")
                    if json {
                        try printJSON(OwnUser(user))
                    } else {
                        print("created user \(user.username) (\(user.id))")
                    }
                } catch {
                    throw Failure.exit(error)
                }
            }
        }
    }

    /// `places settings get|set USERNAME`: a person's settings, with the same rules as `/v1/me/settings`.
    struct SettingsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "settings",
            abstract: "Show or change a person's settings on the database file.",
            subcommands: [Get.self, Set.self]
        )

        struct Get: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Print a person's settings as JSON.")

            @Argument(help: "The username.")
            var username: String

            @OptionGroup var database: SettingsDatabaseOptions

            func run() async throws {
                do {
                    let accounts = try await database.accounts()
                    let user = try await accounts.user(username: username)
                    try printJSON(try await accounts.settings(userID: user.id))
                } catch {
                    throw Failure.exit(error)
                }
            }
        }

        struct Set: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Change some settings, as PATCH /v1/me/settings does.",
                discussion: """
                    For example: --units km --default-radius 3 --default-location 51.5,-0.12 --on sms --off push \
                    --language pt-BR; --reset NAME puts a setting back to its default. The NAME=VALUE changes of \
                    earlier versions still work, with a warning naming the flag.
                    """
            )

            @Argument(help: "The username.")
            var username: String

            @Option(name: .long, help: "A BCP-47 language tag, e.g. en or pt-BR.") var language: String?
            @Option(name: .long, help: "Distance units.") var units: UserSettings.Units?
            @Option(name: .long, parsing: .unconditional, help: "Where nearby centres when no point is given: LAT,LON.")
            var defaultLocation: String?
            @Option(name: .long, help: "The nearby radius when none is given, in miles (more than 0, at most 20).")
            var defaultRadius: Double?
            @Option(name: .long, help: "What you can eat (repeatable; the whole list): \(DietaryNeed.names).") var dietaryNeed: [DietaryNeed] = []
            @Option(name: .long, help: "The highest price level you pay, 1-4.") var maxPrice: Int?
            @Option(name: .long, help: "Whether your default location may place you in a decision's meet: true or false.")
            var shareLocationForMeet: Bool?
            @Option(name: .long, help: "Switch a notification or accessibility preference on (repeatable).") var on: [Preference] = []
            @Option(name: .long, help: "Switch a preference off (repeatable).") var off: [Preference] = []
            @Option(name: .long, help: "Put a setting back to its default (repeatable).") var reset: [Resettable] = []

            @Argument(help: ArgumentHelp("Deprecated: changes as NAME=VALUE.", visibility: .hidden))
            var changes: [String] = []

            @OptionGroup var database: SettingsDatabaseOptions

            /// An on/off preference, by the API's name.
            enum Preference: String, CaseIterable, ExpressibleByArgument {
                case push, email, sms, decisionStarted, decisionCompleted, friendRequests, groupInvitations, adminAlerts
                case largerText, reducedMotion, highContrast, screenReaderHints
            }

            /// A setting `--reset` puts back to its default.
            enum Resettable: String, CaseIterable, ExpressibleByArgument {
                case language, units, defaultLocation, defaultRadiusMiles, notifications, accessibility, dietaryNeeds, maxPrice
                case shareLocationForMeet
            }

            static let flags = [
                "language": "--language", "units": "--units", "defaultLocation": "--default-location",
                "defaultRadiusMiles": "--default-radius", "notifications": "--on / --off", "accessibility": "--on / --off",
                "dietaryNeeds": "--dietary-need", "maxPrice": "--max-price", "shareLocationForMeet": "--share-location-for-meet",
            ]

            /// The change the flags (or the deprecated NAME=VALUE changes) ask for.
            func patch() throws(PlacesError) -> SettingsPatch {
                let flagsGiven = language != nil || units != nil || defaultLocation != nil || defaultRadius != nil || !on.isEmpty
                    || !off.isEmpty || !reset.isEmpty || !dietaryNeed.isEmpty || maxPrice != nil || shareLocationForMeet != nil
                let deprecated = DeprecatedFields(arguments: changes, flags: Set.flags)
                guard deprecated.isEmpty else {
                    return try SettingsPatch(body: try deprecated.body(allowed: SettingsPatch.fields, flagsGiven: flagsGiven))
                }
                var patch = SettingsPatch(
                    language: .given(language),
                    units: .given(units),
                    defaultRadiusMiles: .given(defaultRadius),
                    dietaryNeeds: dietaryNeed.isEmpty ? .keep : .set(dietaryNeed),
                    maxPrice: .given(maxPrice),
                    shareLocationForMeet: .given(shareLocationForMeet)
                )
                if let defaultLocation {
                    let parts = defaultLocation.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
                    guard parts.count == 2, let lat = parts[0], let lon = parts[1] else {
                        throw .invalid("defaultLocation", "default-location is LAT,LON, e.g. 51.5,-0.12")
                    }
                    patch.defaultLocation = .set(UserSettings.Location(lat: lat, lon: lon))
                }
                var notifications: [SettingsPatch.Flags<UserSettings.Notifications>.Flag: Patch<Bool>] = [:]
                var accessibility: [SettingsPatch.Flags<UserSettings.Accessibility>.Flag: Patch<Bool>] = [:]
                for (preferences, value) in [(on, true), (off, false)] {
                    for preference in preferences {
                        if let flag = SettingsPatch.Flags<UserSettings.Notifications>.all.first(where: { $0.name == preference.rawValue }) {
                            notifications[flag] = .set(value)
                        } else if let flag = SettingsPatch.Flags<UserSettings.Accessibility>.all.first(where: { $0.name == preference.rawValue }) {
                            accessibility[flag] = .set(value)
                        }
                    }
                }
                if !notifications.isEmpty { patch.notifications = .set(.init(notifications)) }
                if !accessibility.isEmpty { patch.accessibility = .set(.init(accessibility)) }
                for setting in reset {
                    switch setting {
                    case .language: patch.language = .clear
                    case .units: patch.units = .clear
                    case .defaultLocation: patch.defaultLocation = .clear
                    case .defaultRadiusMiles: patch.defaultRadiusMiles = .clear
                    case .notifications: patch.notifications = .clear
                    case .accessibility: patch.accessibility = .clear
                    case .dietaryNeeds: patch.dietaryNeeds = .clear
                    case .maxPrice: patch.maxPrice = .clear
                    case .shareLocationForMeet: patch.shareLocationForMeet = .clear
                    }
                }
                return patch
            }

            func run() async throws {
                do {
                    let patch = try patch()
                    let accounts = try await database.accounts()
                    let user = try await accounts.user(username: username)
                    try printJSON(try await accounts.updateSettings(userID: user.id, patch))
                } catch {
                    throw Failure.exit(error)
                }
            }
        }
    }
}

extension UserSettings.Units: ExpressibleByArgument {}
extension DietaryNeed: ExpressibleByArgument {}

/// What `settings get` and `settings set` end with: a `--json` they accept though settings always print as JSON, and
/// the account database.
struct SettingsDatabaseOptions: ParsableArguments {
    @Flag(name: .long, help: "Accepted for uniformity: settings always print as the API's JSON.")
    var json = false

    @OptionGroup var database: AccountDatabaseOptions

    /// The account service over the database.
    func accounts() async throws -> AccountService { try await database.accounts() }
}

/// The database, and how passwords hash on it, of the commands that work on accounts.
struct AccountDatabaseOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var hashing: AccountOptions

    /// The account service over the database, hashing at the configured cost.
    func accounts() async throws -> AccountService {
        try await Composition.open(database, hasher: try hashing.hasher()).services.accounts
    }
}
