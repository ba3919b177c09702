import ArgumentParser
import Foundation
import Logging
import Metrics
import NIOCore
import NIOPosix
import PlacesCore
import PlacesHTTP
import PlacesPostgres
import PlacesSQLite
import ServiceLifecycle

extension Places {
    /// `places serve`: the HTTP API. Creates and seeds the database on first start.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the HTTP API.",
            discussion: "On a missing or empty database it creates the file and loads the seed folder first."
        )

        @Option(name: .long, help: "Address to bind (env PLACES_HOST; default 127.0.0.1).")
        var host: String?

        @Option(name: .long, help: "Port to listen on (env PLACES_PORT; default 8080).")
        var port: Int?

        @Option(name: .long, help: "Seed folder loaded into an empty database (env PLACES_SEEDS; default ./Seeds).")
        var seeds: String?

        @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical (env PLACES_LOG_LEVEL).")
        var logLevel: String?

        @Option(name: .long, help: "Log format: text, or json for one JSON object a line (env PLACES_LOG_FORMAT; default text).")
        var logFormat: String?

        @Option(
            name: .customLong("trusted-proxy"),
            help: "Address of a reverse proxy whose X-Forwarded-For names the client; repeatable (env PLACES_TRUSTED_PROXIES, comma-separated)."
        )
        var trustedProxies: [String] = []

        @Option(
            name: .customLong("cors-origin"),
            help: "Origin of a browser app allowed to call the API (https://app.example.com, or * for any); repeatable (env PLACES_CORS_ORIGINS, comma-separated; default none)."
        )
        var corsOrigins: [String] = []

        @Option(
            name: .customLong("map-tiles"),
            help: "URL template of raster tiles for the page's map, like https://tile.example.org/{z}/{x}/{y}.png (env PLACES_MAP_TILES; default none: a graticule)."
        )
        var mapTiles: String?

        @Option(
            name: .customLong("map-tiles-attribution"),
            help: "The attribution the tile server's terms ask for, shown on the map; required with --map-tiles (env PLACES_MAP_TILES_ATTRIBUTION)."
        )
        var mapTilesAttribution: String?

        @Option(
            name: .customLong("registrations-per-hour"),
            help: "Accounts one client address may register in an hour (env PLACES_REGISTRATIONS_PER_HOUR; default 20)."
        )
        var registrationsPerHour: String?

        @Option(
            name: .customLong("places-per-day"),
            help: "Places one account may add in 24 hours (env PLACES_PLACES_PER_DAY; default 200)."
        )
        var placesPerDay: String?

        @Option(
            name: .customLong("messages-per-minute"),
            help: "Messages one account may post in decisions' conversations in a minute (env PLACES_MESSAGES_PER_MINUTE; default 10)."
        )
        var messagesPerMinute: String?

        @Option(
            name: .customLong("photos-per-day"),
            help: "Photos (and pictures) one account may add in 24 hours (env PLACES_PHOTOS_PER_DAY; default 100)."
        )
        var photosPerDay: String?

        @Option(
            name: .customLong("photos-per-place"),
            help: "Photos one account may have of one place (env PLACES_PHOTOS_PER_PLACE; default 20)."
        )
        var photosPerPlace: String?

        @Option(
            name: .customLong("database-connections"),
            help: "PostgreSQL: the most connections the instance opens for its work, the change feed's listener one of them; one more wakes the other instances (env PLACES_DATABASE_CONNECTIONS; default 20)."
        )
        var databaseConnections: String?

        @OptionGroup var databaseOptions: DatabaseOptions
        @OptionGroup var accountOptions: AccountOptions

        func run() async throws {
            // Request handlers then run on the server's event loops instead of hopping to Swift's own thread pool and
            // back for every request: on two cores those thread switches cost a tenth of a nearby request. Nothing
            // that blocks runs on the global executor (bcrypt has its own thread pool, SQLite its own queues).
            // It must happen before the first task is enqueued; if it is too late, handlers hop as before.
            let onEventLoops = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
            do {
                try await serve(handlersOnEventLoops: onEventLoops)
            } catch {
                throw Failure.exit(error)
            }
        }

        private func serve(handlersOnEventLoops: Bool) async throws {
            let levelText = Setting.value(logLevel, environment: "PLACES_LOG_LEVEL", default: "info")
            guard let level = Logger.Level(rawValue: levelText.lowercased()) else {
                throw PlacesError.invalid("log-level", "unknown log level '\(levelText)'")
            }
            let portText = Setting.value(port.map(String.init), environment: "PLACES_PORT", default: "8080")
            guard let portNumber = Int(portText), (0...65_535).contains(portNumber) else {
                throw PlacesError.invalid("port", "port must be a number from 0 to 65535, got '\(portText)'")
            }
            let registrations = try Self.count(registrationsPerHour, environment: "PLACES_REGISTRATIONS_PER_HOUR", default: 20, field: "registrations-per-hour")
            let throttle = LoginThrottle.Policy(registrationsPerAddress: registrations)
            var limits = UsageLimits()
            limits.placesPerDay = try Self.count(placesPerDay, environment: "PLACES_PLACES_PER_DAY", default: 200, field: "places-per-day")
            limits.messagesPerMinute = try Self.count(
                messagesPerMinute,
                environment: "PLACES_MESSAGES_PER_MINUTE",
                default: 10,
                field: "messages-per-minute"
            )
            limits.photosPerDay = try Self.count(photosPerDay, environment: "PLACES_PHOTOS_PER_DAY", default: 100, field: "photos-per-day")
            limits.photosPerPlace = try Self.count(photosPerPlace, environment: "PLACES_PHOTOS_PER_PLACE", default: 20, field: "photos-per-place")
            let connections = try Self.count(
                databaseConnections,
                environment: "PLACES_DATABASE_CONNECTIONS",
                default: PostgresPlacesDatabase.defaultConnections,
                field: "database-connections",
                atLeast: 2,
                why: " (the change feed's listener holds one)"
            )
            let proxies = Self.list(trustedProxies, environment: "PLACES_TRUSTED_PROXIES")
            let origins = Self.list(corsOrigins, environment: "PLACES_CORS_ORIGINS")
            for origin in origins where origin != "*" {
                guard let url = URL(string: origin), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil,
                    url.path.isEmpty, url.query == nil
                else {
                    throw PlacesError.invalid("cors-origin", "a CORS origin is a scheme and host (and port), like https://app.example.com, got '\(origin)'")
                }
            }
            var tiles: MapTiles?
            let tileTemplate = Setting.value(mapTiles, environment: "PLACES_MAP_TILES", default: "")
            if !tileTemplate.isEmpty {
                let attribution = Setting.value(mapTilesAttribution, environment: "PLACES_MAP_TILES_ATTRIBUTION", default: "")
                tiles = try MapTiles(template: tileTemplate, attribution: attribution)
            }
            let settings = ServerSettings(
                host: Setting.value(host, environment: "PLACES_HOST", default: "127.0.0.1"),
                port: portNumber,
                trustedProxies: Set(proxies),
                corsOrigins: Set(origins),
                mapTiles: tiles
            )
            let formatText = Setting.value(logFormat, environment: "PLACES_LOG_FORMAT", default: "text")
            guard ["text", "json"].contains(formatText.lowercased()) else {
                throw PlacesError.invalid("log-format", "log format must be text or json, got '\(formatText)'")
            }
            let json = formatText.lowercased() == "json"
            let logger = Logger(label: "places") { label in
                var handler: any LogHandler = json ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }

            logger.debug("Swift concurrency's global executor", metadata: ["onEventLoops": "\(handlersOnEventLoops)"])
            // Metrics first: the database's pool gauges are made when it opens.
            let location = try databaseOptions.location()
            var databaseSize: (@Sendable () -> Int)?
            if case .file(let path) = location {
                databaseSize = {
                    [path, path + "-wal"].reduce(0) { total, file in
                        total + ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int ?? 0)
                    }
                }
            }
            let metrics = PlacesMetrics(databaseSize: databaseSize)
            MetricsSystem.bootstrap(metrics.factory)
            let composition = try await Composition.open(
                databaseOptions,
                serving: true,
                connections: connections,
                hasher: try accountOptions.hasher(),
                throttle: throttle,
                limits: limits,
                liveMetrics: metrics.live,
                logger: logger
            )
            let engine = composition.engine
            try await seedFirstStart(engine.repositories.places, logger: logger)
            let services = composition.services
            let places = services.places
            let started = ContinuousClock.now
            try await places.loadIndex()
            logger.info("index loaded", metadata: ["places": "\(places.indexedCount)", "took": "\(ContinuousClock.now - started)"])

            // The index follows the change feed, polling every second. On PostgreSQL the feed's notifications wake its
            // subscribers (the index's sync, the live streams' reader): a write through another instance is applied and
            // streamed at once, and while they arrive the streams' reader polls only every few seconds, for a write
            // from outside the service (psql), which announces nothing.
            let index = IndexSubscriber(places) { changed in logger.info("index picked up changes", metadata: ["places": "\(changed)"]) }
            var background = [
                PeriodicService.decisionDeadlines(services.decisions, lease: services.deadlineLease, pruning: services.feed, logger: logger) as any Service
            ]
            if case .postgres(let database) = engine {
                let feed = services.feed
                background.append(BackgroundTask("change feed's notifications") {
                    await database.listenForChanges(listening: { feed.listening($0) }) { feed.wake() }
                })
            }
            let app = buildApplication(
                settings: settings,
                services: services,
                metrics: metrics,
                background: background,
                feedSubscribers: [index],
                logger: logger,
                onServerRunning: { port in
                    logger.notice("serving \(places.indexedCount) places on http://\(settings.host):\(port) from \(engine.description)")
                }
            )
            try await runServer(app)
            // SIGTERM or SIGINT: the server has stopped accepting, let in-flight requests finish, and stopped the
            // background services; the database closes (and folds its WAL in) when the last reference goes.
            logger.notice("stopped; requests in flight were answered")
        }

        /// A whole number of at least `least` (`why` says why, when more than 1) from a flag, else the environment,
        /// else `fallback`.
        static func count(
            _ flag: String?,
            environment name: String,
            default fallback: Int,
            field: String,
            atLeast least: Int = 1,
            why: String = ""
        ) throws(PlacesError) -> Int {
            let text = Setting.value(flag, environment: name, default: String(fallback))
            guard let value = Int(text), value >= least else {
                throw PlacesError.invalid(field, "\(field) must be a whole number of at least \(least)\(why), got '\(text)'")
            }
            return value
        }

        /// The values of a repeatable flag, or else of a comma-separated environment variable.
        static func list(_ flags: [String], environment name: String) -> [String] {
            let values = flags.isEmpty ? Setting.value(nil, environment: name, default: "").split(separator: ",").map(String.init) : flags
            return values.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }

        private func seedFirstStart(_ places: any PlaceRepository, logger: Logger) async throws {
            let folder = Setting.value(seeds, environment: "PLACES_SEEDS", default: "./Seeds")
            guard let outcome = try await SeedRun.seedIfEmpty(places, from: folder, logger: logger) else { return }
            logger.info("seeded", metadata: ["places": "\(outcome.loaded)", "failedFiles": "\(outcome.failedFiles)"])
        }
    }
}
