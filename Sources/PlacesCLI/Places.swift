import ArgumentParser

/// The `places` command: serve the API, load seed files, and ask what is near a point.
@main
struct Places: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "A places service for hidden gems and restaurants.",
        subcommands: [Serve.self, Seed.self, Nearby.self, Meet.self, Search.self, PlaceCommand.self, UserCommand.self, SettingsCommand.self,
            FriendCommand.self, OneCall<Block>.self, OneCall<Unblock>.self, EveryPage<Blocked>.self, StatusCommand.self, PhotoCommand.self, GroupCommand.self,
            CollectionCommand.self, DecisionCommand.self, NotificationCommand.self, Tally.self, Backup.self, Copy.self,
        ]
    )
}
