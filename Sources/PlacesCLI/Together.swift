import ArgumentParser
import Foundation
import GeoIndex
import PlacesCore
import PlacesHTTP
import PlacesSQLite

/// What every command acting as a user shares: whom it acts for (`--as`; their rights apply, as over HTTP), `--json`
/// output, and the database.
struct ActingOptions: ParsableArguments {
    @Option(name: .customLong("as"), help: "Act as this user (their rights apply, as over HTTP).")
    var username: String

    @Flag(name: .long, help: "Print the API's JSON.")
    var json = false

    @OptionGroup var database: DatabaseOptions

    /// Runs `body` as the user and prints what it returns: the API's JSON with `--json`, else `text` of it. A failure
    /// leaves the process the one way `Failure` says.
    func run<Output: Encodable>(_ body: (Together) async throws -> Output, text: (Output) -> String) async throws {
        do {
            let together = try await Together.open(database, as: username)
            let output = try await body(together)
            if json { try printJSON(output) } else { print(text(output)) }
        } catch {
            throw Failure.exit(error)
        }
    }
}

/// The services over the database, and the person acting.
struct Together {
    let services: PlacesServices
    let caller: User

    /// Opens the services over the database and finds the actor (the place index loads only if the command needs it).
    static func open(_ database: DatabaseOptions, as username: String) async throws -> Together {
        let services = try await Composition.open(database).services
        return Together(services: services, caller: try await services.accounts.user(username: username))
    }
}

/// The NAME=VALUE field arguments that commands took before they had flags: still read (VALUE is JSON, or a bare
/// word read as text), with a warning on standard error naming the flag that replaces each field. The names are the
/// API's body fields.
struct DeprecatedFields {
    /// The arguments as given.
    let arguments: [String]
    /// The flag that replaces each field, by field name.
    let flags: [String: String]

    /// True when none were given.
    var isEmpty: Bool { arguments.isEmpty }

    /// What the flags ask for, or, when these deprecated fields were given instead, what `read` makes of them.
    func command<Command>(
        flags: () throws -> Command,
        flagsGiven: Bool,
        allowed: Set<String>,
        read: (FieldReader) throws(PlacesError) -> Command
    ) throws -> Command {
        guard !isEmpty else { return try flags() }
        return try read(try body(allowed: allowed, flagsGiven: flagsGiven))
    }

    /// The arguments as a body (warning once per field), refusing them beside the flags that replace them.
    func body(allowed: Set<String>, flagsGiven: Bool) throws(PlacesError) -> FieldReader {
        guard !flagsGiven else {
            throw .invalid(arguments[0], "give the fields as flags or as NAME=VALUE (deprecated), not both")
        }
        var fields: [String: FieldValue] = [:]
        for argument in arguments {
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw .invalid(argument, "a field is NAME=VALUE, got \(PlacesError.quoted(argument))")
            }
            let name = String(parts[0])
            let text = String(parts[1])
            fields[name] = (try? JSONText.parse(text)) ?? .text(text)
            if let flag = flags[name] { printError("warning: \(name)=… is deprecated; use \(flag)") }
        }
        return try FieldReader(.object(fields), allowed: allowed)
    }
}

/// A command acting as a user: what it asks the services as them. `ActingOptions` prints the answer (the API's JSON
/// with `--json`, else its text) and leaves the process the one way `Failure` says.
protocol ActingCommand: AsyncParsableCommand {
    /// What the command answers.
    associatedtype Answer: Encodable
    /// Whom it acts for, `--json`, and the database.
    var acting: ActingOptions { get }
    /// What the services answer the user.
    func answer(_ together: Together) async throws -> Answer
    /// The answer as printed without `--json`.
    func text(_ answer: Answer) -> String
}

extension ActingCommand {
    func run() async throws {
        try await acting.run(answer, text: text)
    }
}

extension ActingCommand where Answer: CommandLineText {
    func text(_ answer: Answer) -> String { answer.commandLineText }
}

/// How an answer reads on the command line without `--json`.
protocol CommandLineText {
    /// The answer as text.
    var commandLineText: String { get }
}

extension Array: CommandLineText where Element: CommandLineText {
    /// One item a line.
    var commandLineText: String { map(\.commandLineText).joined(separator: "\n") }
}

extension Optional: CommandLineText where Wrapped: CommandLineText {
    /// Nothing when there is none.
    var commandLineText: String { self?.commandLineText ?? "" }
}

/// What a command prints when it has nothing to show: `{"ok": true}` with `--json`, else the word for what it did.
struct Done: Encodable, CommandLineText {
    var ok = true
    /// What was done ("deleted", "removed", …): the text, not part of the JSON.
    let commandLineText: String

    init(_ word: String) {
        commandLineText = word
    }

    private enum CodingKeys: String, CodingKey {
        case ok
    }
}

/// Every item of a paged list, fetched page after page (the command line prints whole lists).
func everyPage<Item>(_ fetch: (PageRequest) async throws -> Page<Item>) async throws -> [Item] {
    var items: [Item] = []
    var request = PageRequest(limit: PageRequest.maximumLimit)
    while true {
        let page = try await fetch(request)
        items += page.items
        guard let cursor = page.nextCursor else { return items }
        request = try PageRequest.parse(limit: String(request.limit), cursor: cursor)
    }
}

extension Patch {
    /// Set when given, else kept: what a flag of a patch command means.
    static func given(_ value: Value?) -> Patch { value.map(Patch.set) ?? .keep }
}
