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

            @OptionGroup var databaseOptions: DatabaseOptions
            @OptionGroup var accountOptions: AccountOptions

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
                    let accounts = try Composition.open(databaseOptions, hasher: try accountOptions.hasher()).services.accounts
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

            @Flag(name: .long, help: "Accepted for uniformity: settings always print as the API's JSON.")
            var json = false

            @OptionGroup var databaseOptions: DatabaseOptions
            @OptionGroup var accountOptions: AccountOptions

            func run() async throws {
                do {
                    let accounts = try Composition.open(databaseOptions, hasher: try accountOptions.hasher()).services.accounts
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
                    Each change is NAME=VALUE, where VALUE is JSON (a bare word is read as text): \
                    units=km defaultRadiusMiles=3 'defaultLocation={"lat":51.5,"lon":-0.12}' \
                    'notifications={"sms":true}' language=pt-BR. NAME=null puts a field back to its default.
                    """
            )

            @Argument(help: "The username.")
            var username: String

            @Argument(help: "Changes, NAME=VALUE.")
            var changes: [String]

            @Flag(name: .long, help: "Accepted for uniformity: settings always print as the API's JSON.")
            var json = false

            @OptionGroup var databaseOptions: DatabaseOptions
            @OptionGroup var accountOptions: AccountOptions

            func run() async throws {
                do {
                    let patch = try SettingsPatch(body: try FieldArguments.reader(changes, allowed: SettingsPatch.fields))
                    let accounts = try Composition.open(databaseOptions, hasher: try accountOptions.hasher()).services.accounts
                    let user = try await accounts.user(username: username)
                    try printJSON(try await accounts.updateSettings(userID: user.id, patch))
                } catch {
                    throw Failure.exit(error)
                }
            }
        }
    }
}
