import PlacesCore

extension PostgresPlacesDatabase {
    /// Every repository of the services, over this database.
    public var repositories: PlacesServices.Repositories {
        PlacesServices.Repositories(
            places: places,
            photos: photos,
            accounts: accounts,
            groups: groups,
            collections: collections,
            decisions: decisions,
            messages: messages,
            notifications: notifications,
            throttle: throttle,
            leases: leases,
            live: live,
            feed: feed
        )
    }
}
