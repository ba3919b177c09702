// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

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
    ],
    targets: [
        .target(
            name: "GeoIndex",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PlacesCore",
            dependencies: [
                "GeoIndex",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PlacesSQLite",
            dependencies: [
                "GeoIndex",
                "PlacesCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PlacesHTTP",
            dependencies: [
                "GeoIndex",
                "PlacesCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            resources: [.embedInCode("openapi.yaml")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "PlacesCLI",
            dependencies: [
                "GeoIndex",
                "PlacesCore",
                "PlacesSQLite",
                "PlacesHTTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "PlacesBench",
            dependencies: [
                "GeoIndex",
                "PlacesCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PlacesRepositoryContract",
            dependencies: ["GeoIndex", "PlacesCore"],
            path: "Tests/RepositoryContract",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "GeoIndexTests", dependencies: ["GeoIndex"], swiftSettings: swiftSettings),
        .testTarget(
            name: "PlacesCoreTests",
            dependencies: ["GeoIndex", "PlacesCore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PlacesSQLiteTests",
            dependencies: [
                "GeoIndex", "PlacesCore", "PlacesRepositoryContract", "PlacesSQLite", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PlacesHTTPTests",
            dependencies: [
                "GeoIndex",
                "PlacesCore",
                "PlacesHTTP",
                "PlacesSQLite",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PlacesCLITests",
            dependencies: ["GeoIndex", "PlacesCLI", "PlacesCore", "PlacesSQLite", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
