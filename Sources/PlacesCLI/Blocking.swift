import ArgumentParser
import Foundation
import PlacesCore

extension Places {
    /// `places block USERNAME --as ME`: as `PUT /v1/users/{username}/block`.
    enum Block: ServiceCall {
        static let configuration = CommandConfiguration(
            commandName: "block",
            abstract: "Block someone: no friend requests, invitations or naming them from either side (PUT /v1/users/{username}/block)."
        )
        static let argument = ArgumentHelp("Their username.", valueName: "username")
        static let call = Done.after("blocked", AccountService.block(_:username:))
    }

    /// `places unblock USERNAME --as ME`: as `DELETE /v1/users/{username}/block`.
    enum Unblock: ServiceCall {
        static let configuration = CommandConfiguration(commandName: "unblock", abstract: "End a block (DELETE /v1/users/{username}/block).")
        static let argument = ArgumentHelp("Their username.", valueName: "username")
        static let call = Done.after("unblocked", AccountService.unblock(_:username:))
    }

    /// `places blocked --as ME`: as `GET /v1/me/blocked`, every page.
    enum Blocked: ServiceList {
        static let configuration = CommandConfiguration(commandName: "blocked", abstract: "List the people you block (GET /v1/me/blocked).")
        static let pages: UserPages<AccountService, BlockedUser> = AccountService.blocked(_:page:)
    }

    /// `places status TEXT [--expires-at T] --as ME`, or `--clear`: as `PUT` and `DELETE /v1/me/status`.
    struct StatusCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Set your status line (1–80 characters, shown to friends and fellow group members), or clear it.",
            discussion: "For example: places status 'In Lisbon this week' --expires-at 2026-12-01T00:00:00Z --as ana"
        )

        @Argument(help: "The status text.") var text: String?
        @Option(name: .long, help: "When it stops showing, ISO-8601 (2026-12-01T18:00:00Z).") var expiresAt: String?
        @Flag(name: .long, help: "Clear the status instead (DELETE /v1/me/status).") var clear = false
        @OptionGroup var acting: ActingOptions

        func validate() throws {
            if clear, text != nil || expiresAt != nil {
                throw ValidationError("--clear takes no text and no --expires-at")
            }
            if !clear, text == nil { throw ValidationError("give the status text, or --clear") }
        }

        func run() async throws {
            if clear {
                try await acting.run { together in
                    try await together.services.accounts.clearStatus(together.caller)
                    return Done("cleared")
                } text: {
                    $0.commandLineText
                }
                return
            }
            try await acting.run { together in
                let expiry = try Start.instant(expiresAt, field: "expiresAt")
                return try await together.services.accounts.setStatus(together.caller, SetStatus(text: text, expiresAt: expiry))
            } text: {
                $0.commandLineText
            }
        }

        private typealias Start = DecisionCommand.Start
    }
}

extension AccountService: CommandLineService {
    static func of(_ services: PlacesServices) -> AccountService { services.accounts }
}

extension BlockedUser: CommandLineText {
    /// The username, and since when.
    var commandLineText: String { "\(user.username)  since \(Timestamp.text(since))" }
}

extension UserStatus: CommandLineText {
    /// The text, and until when.
    var commandLineText: String { text + (expiresAt.map { "  (until \(Timestamp.text($0)))" } ?? "") }
}
