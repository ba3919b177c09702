import ArgumentParser
import PlacesCore
import PlacesHTTP

extension Places {
    /// `places decision …`: group decisions and ballots, as a user.
    struct DecisionCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decision",
            abstract: "Group decisions and ballots, acting as a user on the database file.",
            subcommands: [Start.self, List.self, Show.self, Vote.self, Close.self, Cancel.self, Pick.self, Recount.self]
        )

        static func text(_ view: DecisionView) -> String {
            var lines = ["\(view.id)  \(view.title ?? "decision")  \(view.method.rawValue), \(view.status.rawValue)"]
            lines.append("  candidates: " + view.candidates.map { $0.name ?? $0.placeId }.joined(separator: ", "))
            if !view.waitingFor.isEmpty { lines.append("  waiting for: " + view.waitingFor.joined(separator: ", ")) }
            if let result = view.result ?? view.provisional {
                lines.append("  \(view.result == nil ? "so far" : "winner"): \(name(result.winner, in: view))")
                lines.append("  ranking: " + result.ranking.map { name($0, in: view) }.joined(separator: " > "))
                lines.append("  tie-break: \(result.tieBreak); seed \(result.seed)")
                lines.append("  " + result.reasoning)
            }
            return lines.joined(separator: "\n")
        }

        static func name(_ id: String, in view: DecisionView) -> String {
            view.candidates.first { $0.placeId == id }?.name ?? id
        }

        struct Start: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Start a decision, with the fields of POST /v1/decisions.",
                discussion: """
                    For example: method=tiered groupId=g-… title='Friday dinner' 'candidates={"collectionId":"c-…"}' \
                    deadline=2026-12-01T18:00:00Z, or method=random seed=42 'candidates={"placeIds":["a","b"]}'.
                    """
            )
            @Argument(help: "Fields, NAME=VALUE.") var fields: [String]
            @OptionGroup var actor: ActorOptions
            @Flag(name: .long, help: "Print the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func run() async throws {
                try await Together.run(databaseOptions, as: actor, json: json) { together in
                    try await together.services.decisions.create(
                        together.caller,
                        try StartDecision(body: try FieldArguments.reader(fields, allowed: StartDecision.fields))
                    )
                } text: { DecisionCommand.text($0) }
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "The decisions the user can see, newest first.")
            @OptionGroup var actor: ActorOptions
            @Flag(name: .long, help: "Print the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func run() async throws {
                try await Together.run(databaseOptions, as: actor, json: json) { together in
                    try await everyPage { try await together.services.decisions.list(together.caller, page: $0) }
                } text: { $0.map(DecisionCommand.text).joined(separator: "\n") }
            }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "One decision as the user may see it.")
            @Argument(help: "The decision's id.") var id: String
            @OptionGroup var actor: ActorOptions
            @Flag(name: .long, help: "Print the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func run() async throws {
                try await Together.run(databaseOptions, as: actor, json: json) { together in
                    try await together.services.decisions.view(together.caller, id: id)
                } text: { DecisionCommand.text($0) }
            }
        }

        struct Vote: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Cast or replace a ballot: place ids, best first.")
            @Argument(help: "The decision's id.") var id: String
            @Argument(help: "Place ids, best first.") var ranking: [String]
            @OptionGroup var actor: ActorOptions
            @Flag(name: .long, help: "Print the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func run() async throws {
                try await Together.run(databaseOptions, as: actor, json: json) { together in
                    try await together.services.decisions.vote(together.caller, id: id, CastBallot(ranking: ranking))
                } text: { DecisionCommand.text($0) }
            }
        }

        struct Close: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "End a decision now: count it, or draw a scheduled one.")
            @Argument(help: "The decision's id.") var id: String
            @OptionGroup var actor: ActorOptions
            @Flag(name: .long, help: "Print the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func run() async throws {
                try await Together.run(databaseOptions, as: actor, json: json) { together in
                    try await together.services.decisions.close(together.caller, id: id)
                } text: { DecisionCommand.text($0) }
            }
        }

        struct Cancel: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Cancel a decision without a result.")
            @Argument(help: "The decision's id.") var id: String
            @OptionGroup var actor: ActorOptions
            @Flag(name: .long, help: "Print the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func run() async throws {
                try await Together.run(databaseOptions, as: actor, json: json) { together in
                    try await together.services.decisions.cancel(together.caller, id: id)
                } text: { DecisionCommand.text($0) }
            }
        }

        struct Pick: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Pick the place of a manual decision.")
            @Argument(help: "The decision's id.") var id: String
            @Argument(help: "The place's id.") var placeID: String
            @OptionGroup var actor: ActorOptions
            @Flag(name: .long, help: "Print the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func run() async throws {
                try await Together.run(databaseOptions, as: actor, json: json) { together in
                    try await together.services.decisions.pick(together.caller, id: id, placeID: placeID)
                } text: { DecisionCommand.text($0) }
            }
        }

        struct Recount: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Recompute the result from the stored ballots and seed.")
            @Argument(help: "The decision's id.") var id: String
            @OptionGroup var actor: ActorOptions
            @Flag(name: .long, help: "Print the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func run() async throws {
                try await Together.run(databaseOptions, as: actor, json: json) { together in
                    try await together.services.decisions.recount(together.caller, id: id)
                } text: { "\($0.agrees ? "agrees" : "DISAGREES"): winner \($0.recounted.winner), ranking \($0.recounted.ranking.joined(separator: " > "))" }
            }
        }
    }

    /// `places notifications …`: a user's notifications.
    struct NotificationCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "notifications",
            abstract: "A user's notifications: list, read ID, read-all.",
            subcommands: [List.self, Read.self, ReadAll.self],
            defaultSubcommand: List.self
        )

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Newest first, with the unread count.")
            @Option(name: .long, help: "At most this many (1–100, default 20).") var limit: String?
            @Option(name: .long, help: "The cursor of the next page.") var cursor: String?
            @OptionGroup var actor: ActorOptions
            @Flag(name: .long, help: "Print the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func run() async throws {
                try await Together.run(databaseOptions, as: actor, json: json) { together in
                    try await together.services.notifications.list(
                        recipientID: together.caller.id,
                        page: try PageRequest.parse(limit: limit, cursor: cursor)
                    )
                } text: { page in
                    (["\(page.unreadCount) unread"] + page.items.map { "\($0.readAt == nil ? "*" : " ") \($0.id)  \($0.message)" })
                        .joined(separator: "\n")
                }
            }
        }

        struct Read: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Mark one notification read.")
            @Argument(help: "The notification's id.") var id: String
            @OptionGroup var actor: ActorOptions
            @Flag(name: .long, help: "Print the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func run() async throws {
                try await Together.run(databaseOptions, as: actor, json: json) { together in
                    try await together.services.notifications.markRead(id: id, recipientID: together.caller.id)
                    return Done()
                } text: { _ in "read" }
            }
        }

        struct ReadAll: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "read-all", abstract: "Mark every notification read.")
            @OptionGroup var actor: ActorOptions
            @Flag(name: .long, help: "Print the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func run() async throws {
                try await Together.run(databaseOptions, as: actor, json: json) { together in
                    Marked(marked: try await together.services.notifications.markAllRead(recipientID: together.caller.id))
                } text: { "\($0.marked) marked read" }
            }
        }
    }
}

/// How many notifications were marked read.
struct Marked: Encodable {
    var marked: Int
}
