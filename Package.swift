// swift-tools-version:6.2
import CompilerPluginSupport
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

// Products that several targets depend on, named once.
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")
let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let metrics = Target.Dependency.product(name: "Metrics", package: "swift-metrics")
let nio: [Target.Dependency] = [.product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio")]

let package = Package(
    name: "places",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "places", targets: ["PlacesCLI"]),
        .executable(name: "places-bench", targets: ["PlacesBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", .upToNextMinor(from: "2.28.1")),
        .package(url: "https://github.com/groue/GRDB.swift.git", .upToNextMinor(from: "7.10.0")),
        .package(url: "https://github.com/apple/swift-argument-parser.git", .upToNextMinor(from: "1.8.2")),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", .upToNextMinor(from: "2.5.0")),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", .upToNextMinor(from: "2.4.1")),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swiftlang/swift-syntax.git", .upToNextMinor(from: "603.0.1")),
        .package(url: "https://github.com/vapor/postgres-nio.git", .upToNextMinor(from: "1.33.2")),
    ],
    targets: [
        .target(
            name: "GeoIndex",
            swiftSettings: swiftSettings
        ),
        // A task executor on an event loop, for the HTTP server's connections and the PostgreSQL pool's accesses alike.
        .target(
            name: "EventLoopExecution",
            dependencies: [.product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PlacesCore",
            dependencies: ["GeoIndex", "PlacesMacros", crypto],
            exclude: ["Decisions/README.md"],
            swiftSettings: swiftSettings
        ),
        // `@PublicInit`, for Core's value types that other modules build (compile time only).
        .macro(
            name: "PlacesMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PlacesSQLite",
            dependencies: ["GeoIndex", "PlacesCore", grdb, .product(name: "GRDBSQLite", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        // The shared engine for several instances: the only target that imports postgres-nio.
        .target(
            name: "PlacesPostgres",
            dependencies: ["GeoIndex", "PlacesCore", "EventLoopExecution", .product(name: "PostgresNIO", package: "postgres-nio"), logging, metrics],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PlacesHTTP",
            dependencies: [
                "GeoIndex",
                "PlacesCore",
                "EventLoopExecution",
                crypto,
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                logging,
                metrics,
            ] + nio,
            exclude: ["Web/README.md"],
            resources: [
                .embedInCode("openapi.yaml"), .embedInCode("Web/index.html"), .embedInCode("Web/style.css"), .embedInCode("Web/favicon.svg"),
                .embedInCode("Web/basemap.json"), .embedInCode("Web/app.js"), .embedInCode("Web/api.js"), .embedInCode("Web/dom.js"),
                .embedInCode("Web/geo.js"), .embedInCode("Web/map.js"), .embedInCode("Web/map-input.js"), .embedInCode("Web/map-markers.js"),
                .embedInCode("Web/basemap.js"), .embedInCode("Web/results.js"), .embedInCode("Web/search.js"), .embedInCode("Web/place.js"),
                .embedInCode("Web/account.js"), .embedInCode("Web/stream.js"), .embedInCode("Web/notifications.js"),
                .embedInCode("Web/groups.js"), .embedInCode("Web/decisions.js"), .embedInCode("Web/decision-start.js"),
                .embedInCode("Web/swipe.js"), .embedInCode("Web/conversation.js"), .embedInCode("Web/meet.js"),
                .embedInCode("Web/settings.js"), .embedInCode("Web/people.js"), .embedInCode("Web/photos.js"),
                .embedInCode("Web/picture.js"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "PlacesCLI",
            dependencies: [
                "GeoIndex", "PlacesCore", "PlacesSQLite", "PlacesPostgres", "PlacesHTTP", argumentParser, logging, metrics,
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ] + nio,
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "PlacesBench",
            dependencies: ["GeoIndex", "PlacesCore", grdb, argumentParser],
            swiftSettings: swiftSettings
        ),
        // The fixtures every test target builds from: a place as the tests make it, random coordinates around a centre.
        .target(
            name: "PlacesTestSupport",
            dependencies: ["GeoIndex", "PlacesCore"],
            path: "Tests/PlacesTestSupport",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PlacesRepositoryContract",
            dependencies: ["GeoIndex", "PlacesCore", "PlacesTestSupport"],
            path: "Tests/RepositoryContract",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "GeoIndexTests", dependencies: ["GeoIndex"], swiftSettings: swiftSettings),
        .testTarget(
            name: "PlacesCoreTests",
            dependencies: ["GeoIndex", "PlacesCore", "PlacesTestSupport", crypto],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PlacesSQLiteTests",
            dependencies: ["GeoIndex", "PlacesCore", "PlacesRepositoryContract", "PlacesSQLite", "PlacesTestSupport", grdb],
            swiftSettings: swiftSettings
        ),
        // The PostgreSQL server of the tests (PLACES_TEST_POSTGRES_URL) and a fresh schema on it per test.
        .target(
            name: "PlacesTestPostgres",
            dependencies: ["PlacesCore", "PlacesPostgres", "PlacesRepositoryContract"],
            path: "Tests/TestPostgres",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PlacesPostgresTests",
            dependencies: ["GeoIndex", "PlacesCore", "PlacesRepositoryContract", "PlacesPostgres", "PlacesTestPostgres", "PlacesTestSupport", logging],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PlacesHTTPTests",
            dependencies: [
                "GeoIndex",
                "PlacesCore",
                "PlacesHTTP",
                "PlacesPostgres",
                "PlacesSQLite",
                "PlacesTestPostgres",
                "PlacesTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                logging,
            ] + nio,
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PlacesCLITests",
            dependencies: ["GeoIndex", "PlacesCLI", "PlacesCore", "PlacesPostgres", "PlacesSQLite", "PlacesTestPostgres", "PlacesTestSupport", logging],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
