import Foundation
import Logging
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
        connections: Int = PostgresPlacesDatabase.defaultConnections,
        hasher: (any PasswordHasher)? = nil,
        throttle: LoginThrottle.Policy = LoginThrottle.Policy(),
        limits: UsageLimits = UsageLimits(),
        liveMetrics: LiveMetrics = LiveMetrics(),
        logger: Logger = Logger(label: "places.postgres")
    ) async throws -> Composition {
        let engine = try await Engine.open(try options.location(), readOnly: readOnly, serving: serving, connections: connections, logger: logger)
        let services = PlacesServices(
            repositories: engine.repositories,
            hasher: try hasher ?? BcryptPasswordHasher(),
            throttle: throttle,
            limits: limits,
            liveMetrics: liveMetrics,
            report: { message, error in logger.warning("\(message)", metadata: ["error": "\(error)"]) }
        )
        return Composition(engine: engine, services: services)
    }
}

/// Where the database argument points: a SQLite file, or a PostgreSQL database.
enum DatabaseLocation {
    case file(String)
    case postgres(PostgresLocation)

    /// Reads a database argument: a `postgres://` or `postgresql://` URL (the scheme in any case), or else a file
    /// path. An argument that looks like a URL (`mysql://…`, `postgres:user:secret@host/db` without its `//`, or
    /// `user:secret@host/db`) and is not a PostgreSQL URL is refused rather than taken as the name of a new SQLite
    /// file: a balancer would otherwise send traffic to an empty database of its own. `invalid_input` naming `field`;
    /// the message never repeats the argument, which may hold a password.
    init(argument: String, field: String) throws(PlacesError) {
        guard let scheme = DatabaseLocation.urlScheme(of: argument) else {
            self = .file(argument)
            return
        }
        ProcessTitle.hidePasswords()
        let lowered = scheme.lowercased()
        guard ["postgres", "postgresql"].contains(lowered), argument.dropFirst(scheme.count).hasPrefix("://") else {
            let named = scheme.isEmpty ? "no scheme" : "'\(lowered):'"
            throw PlacesError.invalid(
                field,
                "the database looks like a URL (\(named)) but is not a PostgreSQL one: give postgres://user:password@host:5432/database, or a SQLite file path"
            )
        }
        do {
            self = .postgres(try PostgresLocation(url: lowered + argument.dropFirst(scheme.count)))
        } catch {
            throw PlacesError.invalid(field, error.message)
        }
    }

    /// Schemes of databases and URLs that an operator may type without their `//`.
    private static let knownSchemes: Set<String> = [
        "postgres", "postgresql", "pgsql", "pg", "mysql", "mariadb", "sqlite", "sqlite3", "file", "http", "https", "jdbc", "redis", "mongodb",
    ]

    /// The scheme of an argument that looks like a URL (empty when it has none but holds `user:password@`); nil for an
    /// argument that reads as a file path. Any `scheme://` counts, and so does a database's scheme followed by `:`, `/`
    /// or `;` (`postgres//…` with its colon missing).
    static func urlScheme(of argument: String) -> String? {
        let scheme = argument.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }
        if let first = scheme.first, first.isLetter {
            let after = argument.dropFirst(scheme.count)
            if after.hasPrefix("://") { return String(scheme) }
            if knownSchemes.contains(scheme.lowercased()), let next = after.first, ":/;".contains(next) { return String(scheme) }
        }
        return passwordRange(in: argument[...]) == nil ? nil : ""
    }

    /// Where the password of a URL-like argument is (`postgres://user:PASSWORD@host`, `postgres:user:PASSWORD@host`,
    /// `user:PASSWORD@host`); nil when it holds none. After a scheme the user information ends at the last `@` (a
    /// password may hold `/`); without one, in the first segment of the path.
    static func passwordRange(in argument: Substring) -> Range<String.Index>? {
        var rest = argument
        var schemed = true
        if let separator = rest.range(of: "://") {
            rest = rest[separator.upperBound...]
        } else if let end = rest.firstIndex(where: { ":/;".contains($0) }), knownSchemes.contains(rest[..<end].lowercased()) {
            rest = rest[end...].drop { ":/;".contains($0) }
        } else {
            schemed = false
        }
        let authority = schemed ? rest.prefix { $0 != "?" } : rest.prefix { $0 != "/" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return nil }
        return authority.index(after: colon)..<at
    }
}

/// An open database of either engine.
enum Engine {
    case sqlite(PlacesDatabase, path: String)
    case postgres(PostgresPlacesDatabase)

    /// Opens the database at `location`, creating and migrating it when needed (a SQLite file opened `readOnly` is
    /// never written). A server's request waits 3 s for a PostgreSQL connection before it answers 503; an operator's
    /// command waits up to 30 s. On PostgreSQL the pool opens at most `connections`.
    static func open(
        _ location: DatabaseLocation,
        readOnly: Bool = false,
        serving: Bool = false,
        connections: Int = PostgresPlacesDatabase.defaultConnections,
        logger: Logger = Logger(label: "places.postgres")
    ) async throws -> Engine {
        switch location {
        case .file(let path): .sqlite(try PlacesDatabase(path: path, readOnly: readOnly), path: path)
        case .postgres(let location):
            .postgres(
                try await PostgresPlacesDatabase.open(
                    location,
                    maximumConnections: connections,
                    leaseTimeout: serving ? .seconds(3) : .seconds(30),
                    logger: logger
                )
            )
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
