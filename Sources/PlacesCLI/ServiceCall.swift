import ArgumentParser
import PlacesCore

/// A service method that takes the user acting and one name (an id, a username): `DecisionService.close(_:id:)`.
typealias UserCall<Service, Answer> = @Sendable (Service) -> @Sendable (User, String) async throws -> Answer

/// What a subcommand is when all it does is one call of a service about the one thing it names, as the user: its
/// configuration, its argument, and the call. `OneCall` parses and runs it, so such subcommands (`friend accept`,
/// `decision close`, `group delete`, …) are one command type and differ only in what makes them different.
protocol ServiceCall {
    /// The service the call goes to.
    associatedtype Service: Sendable
    /// What the call answers.
    associatedtype Answer: Encodable & CommandLineText
    /// The subcommand's name (it must be given: the generic command's type name is not one) and abstract.
    static var configuration: CommandConfiguration { get }
    /// The one argument's help; its value name is the `<id>` or `<username>` of the usage line.
    static var argument: ArgumentHelp { get }
    /// The service, of all of them.
    static func service(_ services: PlacesServices) -> Service
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
        try await Call.call(Call.service(together.services))(together.caller, name)
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
