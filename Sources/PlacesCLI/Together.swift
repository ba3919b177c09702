import ArgumentParser
import Foundation
import GeoIndex
import PlacesCore
import PlacesHTTP
import PlacesSQLite

/// `--as USERNAME`: whom a command of people together acts for (the operator works on the file as them).
struct ActorOptions: ParsableArguments {
    @Option(name: .customLong("as"), help: "Act as this user (their rights apply, as over HTTP).")
    var username: String
}

/// The services of people together over the database file, and the person acting.
struct Together {
    let services: PlacesServices
    let caller: User

    /// Opens the services over the database and finds the actor (the place index loads only if the command needs it).
    static func open(_ database: DatabaseOptions, as username: String) async throws -> Together {
        let services = try Composition.open(database).services
        return Together(services: services, caller: try await services.accounts.user(username: username))
    }

    /// Runs `body` as the actor and prints what it returns: the API's JSON with `--json`, else `text` of it.
    static func run<Output: Encodable>(
        _ database: DatabaseOptions,
        as actor: ActorOptions,
        json: Bool,
        _ body: (Together) async throws -> Output,
        text: (Output) -> String
    ) async throws {
        do {
            let together = try await open(database, as: actor.username)
            let output = try await body(together)
            if json { try printJSON(output) } else { print(text(output)) }
        } catch {
            throw Failure.exit(error)
        }
    }
}

/// NAME=VALUE arguments as a JSON object: VALUE is JSON, or a bare word read as text (`name=Crew`,
/// `'candidates={"collectionId":"c-…"}'`). The names are the API's body fields.
enum FieldArguments {
    static func object(_ arguments: [String]) throws(PlacesError) -> [String: FieldValue] {
        var fields: [String: FieldValue] = [:]
        for argument in arguments {
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw PlacesError.invalid(argument, "a field is NAME=VALUE, got \(PlacesError.quoted(argument))")
            }
            let text = String(parts[1])
            fields[String(parts[0])] = (try? JSONText.parse(text)) ?? .text(text)
        }
        return fields
    }

    static func reader(_ arguments: [String], allowed: Set<String>) throws(PlacesError) -> FieldReader {
        try FieldReader(.object(try object(arguments)), allowed: allowed)
    }
}

/// What a command prints when it has nothing to show.
struct Done: Encodable {
    var ok = true
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
