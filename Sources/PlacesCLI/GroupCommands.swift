import ArgumentParser
import PlacesCore
import PlacesHTTP

extension Places {
    /// `places friend …`: friend requests and friends, as a user.
    struct FriendCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "friend",
            abstract: "Friend requests and friends, acting as a user on the database file.",
            subcommands: [OneCall<Request>.self, OneCall<Accept>.self, OneCall<Decline>.self, OneCall<Remove>.self, List.self]
        )

        enum Request: FriendCall {
            static let configuration = CommandConfiguration(
                commandName: "request",
                abstract: "Ask someone to be friends (POST /v1/friends/requests)."
            )
            static let call: UserCall = GroupService.requestFriend(_:username:)
        }

        enum Accept: FriendCall {
            static let configuration = CommandConfiguration(commandName: "accept", abstract: "Accept someone's request.")
            static let call: UserCall = GroupService.acceptFriend(_:username:)
        }

        enum Decline: FriendCall {
            static let configuration = CommandConfiguration(commandName: "decline", abstract: "Decline someone's request.")
            static let call = Done.after("declined", GroupService.declineFriend(_:username:))
        }

        enum Remove: FriendCall {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Unfriend someone, or withdraw a request.")
            static let call = Done.after("removed", GroupService.unfriend(_:username:))
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List friends, or requests with --requests incoming|sent.")
            @Option(name: .long, help: "incoming or sent: list requests instead of friends.") var requests: String?
            @OptionGroup var acting: ActingOptions

            func run() async throws {
                if let requests {
                    guard requests == "incoming" || requests == "sent" else {
                        throw Failure.exit(PlacesError.invalid("requests", "--requests must be incoming or sent"))
                    }
                    try await acting.run { together in
                        try await everyPage { try await together.services.groups.friendRequests(together.caller, incoming: requests == "incoming", page: $0) }
                    } text: { $0.commandLineText }
                    return
                }
                try await acting.run { together in
                    try await everyPage { try await together.services.groups.friends(together.caller, page: $0) }
                } text: { $0.commandLineText }
            }
        }
    }

    /// `places group …`: groups, invitations and members, as a user.
    struct GroupCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "group",
            abstract: "Groups, invitations and members, acting as a user on the database file.",
            subcommands: [
                Create.self, EveryPage<List>.self, OneCall<Show>.self, Update.self, OneCall<Delete>.self, TwoCall<Invite>.self, Answer.self, Leave.self,
                TwoCall<Remove>.self, Role.self, Alert.self,
            ]
        )

        struct Create: ActingCommand {
            static let configuration = CommandConfiguration(abstract: "Make a group; you are its first admin.")
            @OptionGroup var group: GroupFieldOptions
            @Argument(help: ArgumentHelp("Deprecated: fields as NAME=VALUE.", visibility: .hidden)) var fields: [String] = []
            @OptionGroup var acting: ActingOptions

            func answer(_ together: Together) async throws -> Group {
                let command = try DeprecatedFields(arguments: fields, flags: GroupFieldOptions.flags).command(
                    flags: { NewGroup(name: group.name, description: group.description, pictureURL: group.pictureURL) },
                    flagsGiven: group.given,
                    allowed: NewGroup.fields,
                    read: NewGroup.init(body:)
                )
                return try await together.services.groups.createGroup(together.caller, command)
            }
        }

        enum List: ServiceList {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "The user's groups.")
            static let pages: UserPages = GroupService.groups(_:page:)
        }

        enum Show: GroupCall {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "One group and its members.")
            static let call: UserCall = GroupService.group(_:id:)
        }

        struct Update: ActingCommand {
            static let configuration = CommandConfiguration(abstract: "Rename or describe a group (admins).")
            @Argument(help: "The group's id.") var id: String
            @OptionGroup var group: GroupFieldOptions
            @Option(name: .long, help: "Clear this field (repeatable).") var clear: [GroupFieldOptions.Clearable] = []
            @Argument(help: ArgumentHelp("Deprecated: fields as NAME=VALUE.", visibility: .hidden)) var fields: [String] = []
            @OptionGroup var acting: ActingOptions

            func answer(_ together: Together) async throws -> Group {
                let patch = try DeprecatedFields(arguments: fields, flags: GroupFieldOptions.flags).command(
                    flags: {
                        var patch = GroupPatch(name: .given(group.name), description: .given(group.description), pictureURL: .given(group.pictureURL))
                        for field in clear {
                            switch field {
                            case .description: patch.description = .clear
                            case .pictureURL: patch.pictureURL = .clear
                            }
                        }
                        return patch
                    },
                    flagsGiven: group.given || !clear.isEmpty,
                    allowed: NewGroup.fields,
                    read: GroupPatch.init(body:)
                )
                return try await together.services.groups.updateGroup(together.caller, id: id, patch)
            }
        }

        enum Delete: GroupCall {
            static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a group and its collections (admins).")
            static let call = Done.after("deleted", GroupService.deleteGroup(_:id:))
        }

        enum Invite: PairCall {
            static let configuration = CommandConfiguration(commandName: "invite", abstract: "Invite someone into a group (admins).")
            static let arguments = (first: ArgumentHelp("The group's id.", valueName: "id"), second: ArgumentHelp("Their username.", valueName: "username"))
            static let call: UserPairCall = GroupService.invite(_:groupID:username:)
        }

        struct Answer: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "answer",
                abstract: "Accept or decline an invitation: answer GROUP accept|decline."
            )
            @Argument(help: "The group's id.") var id: String
            @Argument(help: "accept or decline.") var answer: InvitationAnswer
            @OptionGroup var acting: ActingOptions

            /// How an invitation is answered.
            enum InvitationAnswer: String, CaseIterable, ExpressibleByArgument {
                case accept, decline
            }

            func run() async throws {
                guard answer == .accept else {
                    try await acting.run { together in
                        try await together.services.groups.answerInvitation(together.caller, groupID: id, accept: false)
                        return Done("declined")
                    } text: { $0.commandLineText }
                    return
                }
                try await acting.run { together in
                    try await together.services.groups.answerInvitation(together.caller, groupID: id, accept: true)
                } text: { $0.commandLineText }
            }
        }

        struct Leave: ActingCommand {
            static let configuration = CommandConfiguration(abstract: "Leave a group; the last admin names a --successor.")
            @Argument(help: "The group's id.") var id: String
            @Option(name: .long, help: "The member who becomes admin.") var successor: String?
            @OptionGroup var acting: ActingOptions

            func answer(_ together: Together) async throws -> Done {
                try await together.services.groups.leave(together.caller, groupID: id, successor: successor)
                return Done("left")
            }
        }

        enum Remove: PairCall {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a member (admins).")
            static let arguments = (first: ArgumentHelp("The group's id.", valueName: "id"), second: ArgumentHelp("Their username.", valueName: "username"))
            static let call = Done.after("removed", GroupService.removeMember(_:groupID:username:))
        }

        struct Role: ActingCommand {
            static let configuration = CommandConfiguration(abstract: "Promote or demote a member: role GROUP USER admin|member (admins).")
            @Argument(help: "The group's id.") var id: String
            @Argument(help: "Their username.") var username: String
            @Argument(help: "admin or member.") var role: GroupRole
            @OptionGroup var acting: ActingOptions

            func answer(_ together: Together) async throws -> Group {
                try await together.services.groups.setRole(together.caller, groupID: id, username: username, role: role)
            }
        }

        struct Alert: ActingCommand {
            static let configuration = CommandConfiguration(
                abstract: "Alert the group: every other member who wants alerts is notified (admins; 10 a group an hour)."
            )
            @Argument(help: "The group's id.") var id: String
            @Argument(help: "The message: 1 to 280 characters.") var message: String
            @OptionGroup var acting: ActingOptions

            func answer(_ together: Together) async throws -> Done {
                try await together.services.groups.sendAlert(together.caller, groupID: id, SendAlert(message: message))
                return Done("alert sent")
            }
        }
    }
}

/// The fields of a group, as flags.
struct GroupFieldOptions: ParsableArguments {
    @Option(name: .long, help: "Its name.") var name: String?
    @Option(name: .long, help: "What it is about.") var description: String?
    @Option(name: .long, help: "An http(s) URL of its picture.") var pictureURL: String?

    /// True when any was given.
    var given: Bool { name != nil || description != nil || pictureURL != nil }

    /// A field `--clear` may name.
    enum Clearable: String, CaseIterable, ExpressibleByArgument {
        case description, pictureURL
    }

    /// The flag that replaces each deprecated field.
    static let flags = ["name": "--name", "description": "--description", "pictureURL": "--picture-url"]
}

extension GroupRole: ExpressibleByArgument {}

extension Group: CommandLineText {
    /// Its id and name, then a member a line, admins marked.
    var commandLineText: String {
        let members = self.members.map { "  \($0.user.username)\($0.role == .admin ? " (admin)" : "")" }
        return (["\(id)  \(name)"] + members).joined(separator: "\n")
    }
}

extension FriendshipStatus: CommandLineText {
    /// Whom it is with, and where it stands.
    var commandLineText: String { "\(user.username): \(status.rawValue)" }
}

extension Friend: CommandLineText {
    /// The friend's username.
    var commandLineText: String { user.username }
}

extension FriendRequest: CommandLineText {
    /// Who asked whom.
    var commandLineText: String { "\(from.username) → \(to.username)" }
}

extension GroupInvitation: CommandLineText {
    /// Whom it invited, and into which group.
    var commandLineText: String { "invited \(invitee.username) to \(groupName)" }
}

/// A `places friend` subcommand that is one call of the group service about the person it names.
protocol FriendCall: ServiceCall where Service == GroupService {}

extension FriendCall {
    static var argument: ArgumentHelp { ArgumentHelp("Their username.", valueName: "username") }
}

/// A `places group` subcommand that is one call of the group service about the group it names.
protocol GroupCall: ServiceCall where Service == GroupService {}

extension GroupCall {
    static var argument: ArgumentHelp { ArgumentHelp("The group's id.", valueName: "id") }
}
