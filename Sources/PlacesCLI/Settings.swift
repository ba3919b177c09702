import ArgumentParser
import Foundation
import PlacesCore

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

/// How a failure leaves the process: the message on stderr, exit 64 for bad input and 1 for anything else.
enum Failure {
    static func exit(_ error: any Error) -> ExitCode {
        if let error = error as? PlacesError {
            printError(error.message)
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
