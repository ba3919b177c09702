import ArgumentParser
import Foundation
import PlacesCore
import PlacesHTTP

extension Places {
    /// `places decision …`: group decisions and ballots, as a user.
    struct DecisionCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decision",
            abstract: "Group decisions and ballots, acting as a user on the database file.",
            subcommands: [
                Start.self, EveryPage<List>.self, OneCall<Show>.self, WithValues<Answers>.self, WithValues<Vote>.self, OneCall<Close>.self, OneCall<Cancel>.self,
                TwoCall<Pick>.self, OneCall<Recount>.self, OneCall<Messages>.self, TwoCall<Message>.self,
            ]
        )

        struct Start: ActingCommand {
            static let configuration = CommandConfiguration(
                abstract: "Start a decision (as POST /v1/decisions).",
                discussion: """
                    Candidates come from one of --collection, --place (repeatable), --nearby or --meet. For example: \
                    --method tiered --group g-… --title 'Friday dinner' --collection c-… --deadline 2026-12-01T18:00:00Z, \
                    or --method random --seed 42 --place lx-a-tasca --place lx-b-miradouro. The NAME=VALUE fields of \
                    earlier versions still work, with a warning naming the flag.
                    """
            )
            @Option(name: .long, help: "How it is decided.") var method: Decision.Method?
            @Option(name: .long, help: "The group it belongs to (default: among you and your friends).") var group: String?
            @Option(name: .long, help: "A title people see.") var title: String?
            @Option(name: .long, help: "Candidates: the places of this collection.") var collection: String?
            @Option(name: .long, help: "Candidates: this place (repeatable).") var place: [String] = []
            @Option(
                name: .long,
                help: #"Candidates: a nearby query as JSON, with the nearby filters (ten of them make no sensible flags), e.g. '{"lat":38.71,"lon":-9.14,"radius":1,"limit":5}'."#
            ) var nearby: String?
            @Option(
                name: .long,
                help: #"Candidates: a meet query as JSON, with the nearby filters, e.g. '{"at":[{"lat":38.71,"lon":-9.14},{"lat":38.74,"lon":-9.10}],"limit":5}' or '{"fromParticipants":true,"respectNeeds":true}'."#
            ) var meet: String?
            @Option(name: .long, help: "A participant's username (repeatable; default: the group, or you).") var participant: [String] = []
            @Option(name: .long, help: "When voting ends, ISO-8601 (2026-12-01T18:00:00Z).") var deadline: String?
            @Option(name: .long, help: "The day of the visit (2026-12-24).") var visitDate: String?
            @Option(name: .long, help: "When the group means to go, ISO-8601 with its offset (2026-12-24T19:30:00+01:00); candidates from --nearby or --meet are open then.") var visitAt: String?
            @Flag(name: .long, help: "Random only: weight the draw by rating.") var weighted = false
            @Flag(name: .long, help: "Random only: draw at close, not at once.") var scheduled = false
            @Option(name: .long, help: "Random only: leave out places won in this many days.") var excludeRecentDays: Int?
            @Option(name: .long, help: "The seed of the draw and tie-breaks (default: a new one).") var seed: UInt64?
            @Option(name: .long, help: "Start with a swipe round: the vetoes each participant may cast (0–10).") var swipeVetoes: Int?
            @Option(name: .long, help: "Swipe round: the fewest yes a place needs to go on.") var swipeMinYes: Int?
            @Option(name: .long, help: "Swipe round: when it ends, ISO-8601, before --deadline.") var swipeDeadline: String?
            @Argument(help: ArgumentHelp("Deprecated: fields as NAME=VALUE.", visibility: .hidden)) var fields: [String] = []
            @OptionGroup var acting: ActingOptions

            static let flags = [
                "method": "--method", "groupId": "--group", "title": "--title", "candidates": "--collection, --place, --nearby or --meet",
                "participants": "--participant", "deadline": "--deadline", "visitDate": "--visit-date", "weighted": "--weighted",
                "scheduled": "--scheduled", "excludeRecentDays": "--exclude-recent-days", "seed": "--seed",
            ]

            /// The command the flags (or the deprecated fields) ask for.
            func command() throws(PlacesError) -> StartDecision {
                let deprecated = DeprecatedFields(arguments: fields, flags: Start.flags)
                guard deprecated.isEmpty else {
                    return try StartDecision(body: try deprecated.body(allowed: StartDecision.fields, flagsGiven: method != nil))
                }
                guard let method else { throw .invalid("method", "method is required: random, tiered or manual") }
                let sources = [collection != nil, !place.isEmpty, nearby != nil, meet != nil].filter { $0 }.count
                guard sources == 1 else { throw .invalid("candidates", "give exactly one of --collection, --place, --nearby or --meet") }
                let candidates: StartDecision.Candidates
                if let collection {
                    candidates = .collection(id: collection)
                } else if let nearby {
                    let value = try FieldReader.parse(Array(nearby.utf8))
                    candidates = .nearby(try StartDecision.NearbyCandidates(body: try FieldReader(value, allowed: StartDecision.NearbyCandidates.fields)))
                } else if let meet {
                    let value = try FieldReader.parse(Array(meet.utf8))
                    candidates = .meet(try StartDecision.MeetCandidates(body: try FieldReader(value, allowed: StartDecision.MeetCandidates.fields)))
                } else {
                    candidates = .places(place)
                }
                let instant = try Start.instant(deadline, field: "deadline")
                var round: StartDecision.Round?
                if swipeVetoes != nil || swipeMinYes != nil || swipeDeadline != nil {
                    round = StartDecision.Round(vetoes: swipeVetoes, minYes: swipeMinYes, deadline: try Start.instant(swipeDeadline, field: "swipe.deadline"))
                }
                return StartDecision(
                    method: method,
                    candidates: candidates,
                    groupId: group,
                    title: title,
                    participants: participant.isEmpty ? nil : participant,
                    deadline: instant,
                    visitDate: visitDate,
                    visitAt: try Start.instant(visitAt, field: "visitAt"),
                    weighted: weighted ? true : nil,
                    scheduled: scheduled ? true : nil,
                    excludeRecentDays: excludeRecentDays,
                    seed: seed,
                    swipe: round
                )
            }

            /// The ISO-8601 time `text`, when given.
            static func instant(_ text: String?, field: String) throws(PlacesError) -> Date? {
                guard let text else { return nil }
                guard let date = ISO8601Time.date(text) else {
                    throw .invalid(field, "\(field) must be an ISO-8601 time such as 2026-11-22T18:30:00Z")
                }
                return date
            }

            func answer(_ together: Together) async throws -> DecisionView {
                try await together.services.decisions.create(together.caller, try command())
            }
        }

        enum List: ServiceList {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "The decisions the user can see, newest first.")
            static let pages: UserPages = DecisionService.list(_:page:)
        }

        enum Show: DecisionCall {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "One decision as the user may see it.")
            static let call: UserCall = DecisionService.view(_:id:)
        }

        enum Answers: ValuesCall {
            static let configuration = CommandConfiguration(
                commandName: "swipe",
                abstract: "Answer in a decision's swipe round: PLACE=yes, PLACE=no or PLACE=veto, all saved or none.",
                discussion: "For example: places decision swipe d-… lx-a-tasca=yes lx-b-miradouro=veto. Nobody else sees your answers."
            )
            static let values = ArgumentHelp("PLACE=ANSWER, one or more (yes, no or veto).", valueName: "answers")

            static func call(_ decisions: DecisionService, _ caller: User, _ id: String, _ values: [String]) async throws -> DecisionView {
                var given: [(placeId: String, answer: SwipeAnswer)] = []
                for argument in values {
                    let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
                    guard parts.count == 2, !parts[0].isEmpty, let answer = SwipeAnswer(rawValue: parts[1]) else {
                        throw PlacesError.invalid("answer", "\(PlacesError.quoted(argument)) is not PLACE=yes, PLACE=no or PLACE=veto")
                    }
                    given.append((parts[0], answer))
                }
                return try await decisions.swipe(caller, id: id, SwipeAnswers(answers: given))
            }
        }

        enum Vote: ValuesCall {
            static let configuration = CommandConfiguration(commandName: "vote", abstract: "Cast or replace a ballot: place ids, best first.")
            static let values = ArgumentHelp("Place ids, best first.", valueName: "ranking")

            static func call(_ decisions: DecisionService, _ caller: User, _ id: String, _ values: [String]) async throws -> DecisionView {
                try await decisions.vote(caller, id: id, CastBallot(ranking: values))
            }
        }

        enum Close: DecisionCall {
            static let configuration = CommandConfiguration(commandName: "close", abstract: "End a decision now: count it, or draw a scheduled one.")
            static let call: UserCall = DecisionService.close(_:id:)
        }

        enum Cancel: DecisionCall {
            static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Cancel a decision without a result.")
            static let call: UserCall = DecisionService.cancel(_:id:)
        }

        enum Pick: PairCall {
            static let configuration = CommandConfiguration(commandName: "pick", abstract: "Pick the place of a manual decision.")
            static let arguments = (first: ArgumentHelp("The decision's id.", valueName: "id"), second: ArgumentHelp("The place's id.", valueName: "place-id"))
            static let call: UserPairCall<DecisionService, DecisionView> = { decisions in { try await decisions.pick($0, id: $1, placeID: $2) } }
        }

        enum Recount: DecisionCall {
            static let configuration = CommandConfiguration(
                commandName: "recount",
                abstract: "Recompute the result from the stored ballots and seed."
            )
            static let call: UserCall = DecisionService.recount(_:id:)
        }

        enum Messages: ServiceCall {
            static let configuration = CommandConfiguration(
                commandName: "messages",
                abstract: "A decision's conversation, oldest first (its participants and its starter)."
            )
            static let argument = ArgumentHelp("The decision's id.", valueName: "id")
            static let call: UserCall<ConversationService, [DecisionMessage]> = { conversations in
                { caller, id in
                    try await everyPage { try await conversations.messages(caller, decisionID: id, page: $0) }.reversed()
                }
            }
        }

        enum Message: PairCall {
            static let configuration = CommandConfiguration(
                commandName: "message",
                abstract: "Post a message in a decision's conversation (1–500 characters, while it is active)."
            )
            static let arguments = (first: ArgumentHelp("The decision's id.", valueName: "id"), second: ArgumentHelp("The text.", valueName: "text"))
            static let call: UserPairCall<ConversationService, DecisionMessage> = { conversations in
                { try await conversations.post($0, decisionID: $1, PostMessage(text: $2)) }
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

        struct List: ActingCommand {
            static let configuration = CommandConfiguration(abstract: "Newest first, with the unread count.")
            @Option(name: .long, help: "At most this many (1–100, default 20).") var limit: String?
            @Option(name: .long, help: "The cursor of the next page.") var cursor: String?
            @OptionGroup var acting: ActingOptions

            func answer(_ together: Together) async throws -> NotificationPage {
                try await together.services.notifications.list(recipientID: together.caller.id, page: try PageRequest.parse(limit: limit, cursor: cursor))
            }

            func text(_ page: NotificationPage) -> String {
                (["\(page.unreadCount) unread"] + page.items.map { "\($0.readAt == nil ? "*" : " ") \($0.id)  \($0.message)" })
                    .joined(separator: "\n")
            }
        }

        struct Read: ActingCommand {
            static let configuration = CommandConfiguration(abstract: "Mark one notification read.")
            @Argument(help: "The notification's id.") var id: String
            @OptionGroup var acting: ActingOptions

            func answer(_ together: Together) async throws -> Done {
                try await together.services.notifications.markRead(id: id, recipientID: together.caller.id)
                return Done("read")
            }
        }

        struct ReadAll: ActingCommand {
            static let configuration = CommandConfiguration(commandName: "read-all", abstract: "Mark every notification read.")
            @OptionGroup var acting: ActingOptions

            func answer(_ together: Together) async throws -> Marked {
                Marked(marked: try await together.services.notifications.markAllRead(recipientID: together.caller.id))
            }
        }
    }
}

/// A `places decision` subcommand that is one call of the decision service about the decision it names.
protocol DecisionCall: ServiceCall where Service == DecisionService {}

/// A `places decision` subcommand about the decision it names and the values that follow it (a ranking, answers).
protocol ValuesCall {
    /// The subcommand's name and abstract.
    static var configuration: CommandConfiguration { get }
    /// The values' help.
    static var values: ArgumentHelp { get }
    /// The call, with the values as given.
    static func call(_ decisions: DecisionService, _ caller: User, _ id: String, _ values: [String]) async throws -> DecisionView
}

/// A subcommand that is one `ValuesCall`: the decision's id, one or more values, and whom it acts for.
struct WithValues<Call: ValuesCall>: ActingCommand {
    static var configuration: CommandConfiguration { Call.configuration }

    @Argument(help: "The decision's id.") var id: String
    @Argument(help: Call.values) var values: [String]
    @OptionGroup var acting: ActingOptions

    func answer(_ together: Together) async throws -> DecisionView {
        try await Call.call(together.services.decisions, together.caller, id, values)
    }
}

extension DecisionCall {
    static var argument: ArgumentHelp { ArgumentHelp("The decision's id.", valueName: "id") }
}

extension DecisionMessage: CommandLineText {
    /// `2026-11-27T14:05:00Z  ana: text`.
    var commandLineText: String { "\(Timestamp.text(createdAt))  \(author.username): \(text)" }
}

/// How many notifications were marked read.
struct Marked: Encodable, CommandLineText {
    var marked: Int

    var commandLineText: String { "\(marked) marked read" }
}

extension DecisionView: CommandLineText {
    /// The decision, its candidates, whom it waits for, and its result (or the count so far) with the reasoning.
    var commandLineText: String {
        var lines = ["\(id)  \(title ?? "decision")  \(method.rawValue), \(status.rawValue)"]
        lines.append("  candidates: " + candidates.map { candidate in
            (candidate.name ?? candidate.placeId) + (candidate.openStatus.map { " (\($0.rawValue) then)" } ?? "")
        }.joined(separator: ", "))
        if let visitAt { lines.append("  visit: \(visitAt.formatted(Date.ISO8601FormatStyle()))") } else if let visitDate { lines.append("  visit: \(visitDate)") }
        if let meetWithout { lines.append("  met without the locations of: " + meetWithout.joined(separator: ", ")) }
        if let swipe, swipe.open {
            var rule = "\(swipe.vetoes) \(swipe.vetoes == 1 ? "veto" : "vetoes") each"
            if let minYes = swipe.minYes { rule += ", at least \(minYes) yes" }
            lines.append("  swipe round open (\(rule)); answered: " + (swipe.answered.isEmpty ? "nobody yet" : swipe.answered.joined(separator: ", ")))
            if let mine = swipe.mySwipes {
                let given = candidates.compactMap { candidate in mine[candidate.placeId].map { "\(candidate.name ?? candidate.placeId) \($0.rawValue)" } }
                lines.append("  your answers: " + (given.isEmpty ? "none yet" : given.joined(separator: ", ")) + "; vetoes left: \(swipe.vetoesLeft ?? 0)")
            }
        }
        if !waitingFor.isEmpty { lines.append("  waiting for: " + waitingFor.joined(separator: ", ")) }
        if let round = roundResult {
            lines.append("  swipe round: " + round.reasoning)
        }
        if let result = result ?? provisional {
            let open = result.winnerOpen.map { $0 ? ", open then" : ", closed then" } ?? ""
            lines.append("  \(self.result == nil ? "so far" : "winner"): \(result.winner.map(name) ?? "none (nothing survived the swipe round)")\(open)")
            lines.append("  ranking: " + result.ranking.map(name).joined(separator: " > "))
            lines.append("  tie-break: \(result.tieBreak.rawValue); seed \(result.seed)")
            lines.append("  " + result.reasoning)
        }
        return lines.joined(separator: "\n")
    }

    /// The name of the candidate place `id`, or the id when it has none.
    private func name(_ id: String) -> String {
        candidates.first { $0.placeId == id }?.name ?? id
    }
}

extension Recount: CommandLineText {
    /// Whether the recount agrees, and its winner and ranking.
    var commandLineText: String {
        "\(agrees ? "agrees" : "DISAGREES"): winner \(recounted.winner ?? "none"), ranking \(recounted.ranking.joined(separator: " > "))"
    }
}

extension Decision.Method: ExpressibleByArgument {}
