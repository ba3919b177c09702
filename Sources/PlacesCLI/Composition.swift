import Foundation
import PlacesCore
import PlacesHTTP
import PlacesPostgres
import PlacesSQLite

/// The composition root: opens the engine the database argument names and builds the one service graph that `serve`
/// and every command act through. The place index is not loaded here: `serve` loads it at start, and a command loads
/// it only when it answers a spatial question or shows places.
struct Composition {
    /// The engine.
    let engine: Engine
    /// The services over it.
    let services: PlacesServices

    /// Opens the database (`readOnly` for commands that only read a SQLite file; `serving` for the server, whose
    /// requests wait for a database connection only briefly) and wires the services over it; `hasher` defaults to
    /// bcrypt at its default cost (commands that hash take `--bcrypt-cost`).
    static func open(
        _ options: DatabaseOptions,
        readOnly: Bool = false,
        serving: Bool = false,
        hasher: (any PasswordHasher)? = nil,
        throttle: LoginThrottle.Policy = LoginThrottle.Policy(),
        limits: UsageLimits = UsageLimits()
    ) async throws -> Composition {
        let engine = try await Engine.open(try options.location(), readOnly: readOnly, serving: serving)
        let services = PlacesServices(
            repositories: engine.repositories,
            hasher: try hasher ?? BcryptPasswordHasher(),
            throttle: throttle,
            limits: limits
        )
        return Composition(engine: engine, services: services)
    }
}

/// Where the database argument points: a SQLite file, or a PostgreSQL database.
enum DatabaseLocation {
    case file(String)
    case postgres(PostgresLocation)
}

/// An open database of either engine.
enum Engine {
    case sqlite(PlacesDatabase, path: String)
    case postgres(PostgresPlacesDatabase)

    /// Opens the database at `location`, creating and migrating it when needed (a SQLite file opened `readOnly` is
    /// never written). A server's request waits 3 s for a PostgreSQL connection before it answers 503; an operator's
    /// command waits up to 30 s.
    static func open(_ location: DatabaseLocation, readOnly: Bool = false, serving: Bool = false) async throws -> Engine {
        switch location {
        case .file(let path): .sqlite(try PlacesDatabase(path: path, readOnly: readOnly), path: path)
        case .postgres(let location):
            .postgres(try await PostgresPlacesDatabase.open(location, leaseTimeout: serving ? .seconds(3) : .seconds(30)))
        }
    }

    /// Every repository of the services, over this database.
    var repositories: PlacesServices.Repositories {
        switch self {
        case .sqlite(let database, _): database.repositories
        case .postgres(let database): database.repositories
        }
    }

    /// The database as logs show it: the file's path, or the URL without its password.
    var description: String {
        switch self {
        case .sqlite(_, let path): path
        case .postgres(let database): database.location.description
        }
    }
}
