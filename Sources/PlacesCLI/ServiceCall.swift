import ArgumentParser
import PlacesCore

/// A service method that takes the user acting and one name (an id, a username): `DecisionService.close(_:id:)`.
typealias UserCall<Service, Answer> = @Sendable (Service) -> @Sendable (User, String) async throws -> Answer

/// A service method that takes the user acting and two names: `GroupService.invite(_:groupID:username:)`.
typealias UserPairCall<Service, Answer> = @Sendable (Service) -> @Sendable (User, String, String) async throws -> Answer

/// A service method that lists, a page at a time, what the user acting may see: `GroupService.groups(_:page:)`.
typealias UserPages<Service, Item> = @Sendable (Service) -> @Sendable (User, PageRequest) async throws -> Page<Item>

/// A service the generic subcommands call, found among all of them.
protocol CommandLineService: Sendable {
    /// This service, of all of them.
    static func of(_ services: PlacesServices) -> Self
}

/// What a subcommand is when all it does is one call of a service about the one thing it names, as the user: its
/// configuration, its argument, and the call. `OneCall` parses and runs it, so such subcommands (`friend accept`,
/// `decision close`, `group delete`, …) are one command type and differ only in what makes them different.
protocol ServiceCall {
    /// The service the call goes to.
    associatedtype Service: CommandLineService
    /// What the call answers.
    associatedtype Answer: Encodable & CommandLineText
    /// The subcommand's name (it must be given: the generic command's type name is not one) and abstract.
    static var configuration: CommandConfiguration { get }
    /// The one argument's help; its value name is the `<id>` or `<username>` of the usage line.
    static var argument: ArgumentHelp { get }
    /// The call.
    static var call: UserCall<Service, Answer> { get }
}

/// A subcommand that is one `ServiceCall`: its argument, whom it acts for, and the answer printed as `ActingCommand`
/// prints it.
struct OneCall<Call: ServiceCall>: ActingCommand {
    static var configuration: CommandConfiguration { Call.configuration }

    @Argument(help: Call.argument) var name: String
    @OptionGroup var acting: ActingOptions

    func answer(_ together: Together) async throws -> Call.Answer {
        try await Call.call(.of(together.services))(together.caller, name)
    }
}

/// What a subcommand is when all it does is one call of a service about two things it names (a group and a person, a
/// collection and a place), as the user. `TwoCall` parses and runs it.
protocol PairCall {
    /// The service the call goes to.
    associatedtype Service: CommandLineService
    /// What the call answers.
    associatedtype Answer: Encodable & CommandLineText
    /// The subcommand's name and abstract.
    static var configuration: CommandConfiguration { get }
    /// The two arguments' help, in order.
    static var arguments: (first: ArgumentHelp, second: ArgumentHelp) { get }
    /// The call.
    static var call: UserPairCall<Service, Answer> { get }
}

/// A subcommand that is one `PairCall`: its two arguments, whom it acts for, and the answer printed as `ActingCommand`
/// prints it.
struct TwoCall<Call: PairCall>: ActingCommand {
    static var configuration: CommandConfiguration { Call.configuration }

    @Argument(help: Call.arguments.first) var first: String
    @Argument(help: Call.arguments.second) var second: String
    @OptionGroup var acting: ActingOptions

    func answer(_ together: Together) async throws -> Call.Answer {
        try await Call.call(.of(together.services))(together.caller, first, second)
    }
}

/// What a subcommand is when all it does is list what one service method pages through for the user: its
/// configuration and the method. `EveryPage` runs it and prints the whole list.
protocol ServiceList {
    /// The service that lists.
    associatedtype Service: CommandLineService
    /// What it lists.
    associatedtype Item: Encodable & CommandLineText & Sendable
    /// The subcommand's name and abstract.
    static var configuration: CommandConfiguration { get }
    /// The paged method.
    static var pages: UserPages<Service, Item> { get }
}

/// A subcommand that is one `ServiceList`: every page of it, as the user.
struct EveryPage<List: ServiceList>: ActingCommand {
    static var configuration: CommandConfiguration { List.configuration }

    @OptionGroup var acting: ActingOptions

    func answer(_ together: Together) async throws -> [List.Item] {
        let list = List.pages(.of(together.services))
        return try await everyPage { try await list(together.caller, $0) }
    }
}

extension Done {
    /// `call`, for a service method that answers nothing: the answer is `Done(word)` once it has run.
    static func after<Service: Sendable>(_ word: String, _ call: @escaping UserCall<Service, Void>) -> UserCall<Service, Done> {
        { service in
            { caller, name in
                try await call(service)(caller, name)
                return Done(word)
            }
        }
    }
}

extension Done {
    /// `call`, for a service method of two names that answers nothing: `Done(word)` once it has run.
    static func after<Service: Sendable>(_ word: String, _ call: @escaping UserPairCall<Service, Void>) -> UserPairCall<Service, Done> {
        { service in
            { caller, first, second in
                try await call(service)(caller, first, second)
                return Done(word)
            }
        }
    }
}

extension GroupService: CommandLineService {
    static func of(_ services: PlacesServices) -> GroupService { services.groups }
}

extension CollectionService: CommandLineService {
    static func of(_ services: PlacesServices) -> CollectionService { services.collections }
}

extension ConversationService: CommandLineService {
    static func of(_ services: PlacesServices) -> Self { services.conversations }
}

extension DecisionService: CommandLineService {
    static func of(_ services: PlacesServices) -> DecisionService { services.decisions }
}
