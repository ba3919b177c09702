import ArgumentParser
import Foundation
import PlacesCore
import PlacesHTTP
import PlacesPostgres
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
    @Option(
        name: .long,
        help: "A SQLite file, or a postgres://user:password@host:5432/places URL (env PLACES_DATABASE; default ./places.sqlite)."
    )
    var database: String?

    /// The database argument after flag, environment and default: a path, or a URL.
    var path: String { Setting.value(database, environment: "PLACES_DATABASE", default: "./places.sqlite") }

    /// Where the argument points; `invalid_input` (field `database`) for a URL that is not a PostgreSQL URL that reads.
    func location() throws(PlacesError) -> DatabaseLocation {
        try DatabaseLocation(argument: path, field: "database")
    }

    /// The path of a SQLite database that must already exist (commands that only read it), `not_found` when there is
    /// no such file; nil for a PostgreSQL database.
    func existingFile(_ hint: String) throws -> String? {
        guard case .file(let path) = try location() else { return nil }
        guard FileManager.default.fileExists(atPath: path) else { throw PlacesError(.notFound, "no database at \(path); \(hint)", field: "database") }
        return path
    }
}

/// The process's command line as `ps` and /proc show it.
enum ProcessTitle {
    /// Overwrites the password of every argument that looks like a URL with a password (`postgres://user:password@host`,
    /// alone or after `--database=`, and mistyped ones too) with asterisks, in the process's own argument memory (what
    /// `ps` shows), once the arguments have been read.
    static func hidePasswords() {
        for index in 0..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let text = String(cString: argument)
            // The URL alone, or after `--database=`.
            let value = text.hasPrefix("-") ? text.firstIndex(of: "=").map { text[text.index(after: $0)...] } ?? "" : text[...]
            guard let password = DatabaseLocation.passwordRange(in: value) else { continue }
            let start = text.utf8.distance(from: text.startIndex, to: password.lowerBound)
            let end = text.utf8.distance(from: text.startIndex, to: password.upperBound)
            for position in start..<end { argument[position] = CChar(UInt8(ascii: "*")) }
        }
    }
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

/// How a failure leaves the process: the message on stderr, exit 64 for bad input (a name or id that matches nothing
/// included) and 1 for anything else.
enum Failure {
    static func exit(_ error: any Error) -> ExitCode {
        if let error = error as? PlacesError {
            // The stable code first, as the API's error body has it: `invalid_input (lat): lat must be …`.
            printError(error.description)
            let badInput: Set<PlacesError.Code> = [.invalidInput, .notFound, .unknownReference]
            return badInput.contains(error.code) ? ExitCode(64) : ExitCode(1)
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
