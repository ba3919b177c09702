import ArgumentParser
import Foundation
import PlacesCore
import PlacesHTTP
import PlacesSQLite

/// Reads a setting the way DESIGN.md orders them: flag, then environment, then default.
enum Setting {
    static func value(_ flag: String?, environment name: String, default fallback: String) -> String {
        if let flag { return flag }
        if let value = ProcessInfo.processInfo.environment[name], !value.isEmpty { return value }
        return fallback
    }
}

/// The `--database` option every command shares.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "The SQLite database file (env PLACES_DATABASE; default ./places.sqlite).")
    var database: String?

    /// The database path after flag, environment and default.
    var path: String { Setting.value(database, environment: "PLACES_DATABASE", default: "./places.sqlite") }
}

/// The options of commands that hash passwords.
struct AccountOptions: ParsableArguments {
    @Option(name: .long, help: "bcrypt cost, 4...31 (env PLACES_BCRYPT_COST; default 12). Lower only for tests.")
    var bcryptCost: String?

    /// The password hasher at the configured cost.
    func hasher() throws -> BcryptPasswordHasher {
        let text = Setting.value(bcryptCost, environment: "PLACES_BCRYPT_COST", default: "12")
        guard let cost = UInt8(text) else { throw PlacesError.invalid("bcrypt-cost", "bcrypt cost must be from 4 to 31") }
        return try BcryptPasswordHasher(cost: cost)
    }
}

/// Writes `value` as the API's JSON on standard output, one line.
func printJSON(_ value: some Encodable) throws {
    print(String(decoding: try PlacesJSON.makeEncoder().encode(value), as: UTF8.self))
}

/// How a failure leaves the process: the message on stderr, exit 64 for bad input and 1 for anything else.
enum Failure {
    static func exit(_ error: any Error) -> ExitCode {
        if let error = error as? PlacesError {
            // The stable code first, as the API's error body has it: `invalid_input (lat): lat must be …`.
            printError(error.description)
            return error.code == .invalidInput || error.code == .notFound ? ExitCode(64) : ExitCode(1)
        }
        if let error = error as? ExitCode { return error }
        printError("\(error)")
        return ExitCode(1)
    }
}

/// Writes one line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data(("places: " + message + "\n").utf8))
}
