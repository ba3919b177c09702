import Foundation
import PlacesCore
import PlacesHTTP
import PlacesSQLite

/// The composition root: opens the engine the database argument names and builds the one service graph that `serve`
/// and every command act through. The place index is not loaded here: `serve` loads it at start, and a command loads
/// it only when it answers a spatial question or shows places.
struct Composition {
    /// The engine.
    let database: PlacesDatabase
    /// The services over it.
    let services: PlacesServices

    /// Opens the database (`readOnly` for commands that only read) and wires the services over it; `hasher` defaults
    /// to bcrypt at its default cost (commands that hash take `--bcrypt-cost`).
    static func open(
        _ options: DatabaseOptions,
        readOnly: Bool = false,
        hasher: (any PasswordHasher)? = nil,
        throttle: LoginThrottle = LoginThrottle(),
        limits: UsageLimits = UsageLimits()
    ) throws -> Composition {
        let database = try PlacesDatabase(path: options.path, readOnly: readOnly)
        let services = PlacesServices(
            repositories: database.repositories,
            hasher: try hasher ?? BcryptPasswordHasher(),
            throttle: throttle,
            limits: limits
        )
        return Composition(database: database, services: services)
    }
}

extension PlacesDatabase {
    /// Every repository of the services, over this database.
    var repositories: PlacesServices.Repositories {
        PlacesServices.Repositories(
            places: places,
            accounts: accounts,
            groups: groups,
            collections: collections,
            decisions: decisions,
            notifications: notifications
        )
    }
}
