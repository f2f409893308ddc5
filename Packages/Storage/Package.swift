// swift-tools-version: 6.0
// Standalone manifest for the Storage package: `swift test --package-path Packages/Storage`.
// Must agree with the root manifest (checked by Tools/Scripts/check-manifests.py).
import PackageDescription

let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Storage",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "Storage", targets: ["Storage"]),
        .library(name: "StorageSQLite", targets: ["StorageSQLite"]),
        .library(name: "StoragePostgres", targets: ["StoragePostgres"]),
        .library(name: "StoragePostgresTesting", targets: ["StoragePostgresTesting"]),
        .library(name: "StorageSyncServer", targets: ["StorageSyncServer"]),
    ],
    dependencies: [
        .package(path: "../Errors"),
        .package(path: "../Serialization"),
        .package(path: "../Support"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // Test-only: raw TCP for bytes an HTTP client refuses to send, and running a server in a test.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Test-only: random records and queries for the differential tests.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .target(
            name: "Storage",
            dependencies: [
                .product(name: "Errors", package: "Errors"), .product(name: "Serialization", package: "Serialization"),
                .product(name: "_KitSupport", package: "Support"),
            ], swiftSettings: swiftSettings),
        .testTarget(
            name: "StorageTests",
            dependencies: ["Storage", .product(name: "Serialization", package: "Serialization"), "StorageCrashProbe"],
            swiftSettings: swiftSettings),
        // The child process of the crash and cross-process tests; the tests find it beside themselves.
        .executableTarget(name: "StorageCrashProbe", dependencies: ["Storage"], swiftSettings: swiftSettings),
        .target(
            name: "StorageSQLite",
            dependencies: [
                "Storage", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "StorageSQLiteTests",
            dependencies: [
                "StorageSQLite", "Storage", .product(name: "Serialization", package: "Serialization"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "StoragePostgres",
            dependencies: [
                .product(name: "Errors", package: "Errors"), "Storage",
                .product(name: "_KitSupport", package: "Support"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "StoragePostgresTests",
            dependencies: [
                "StoragePostgres", "Storage", "StorageSQLite", "StoragePostgresProbe", "StoragePostgresTesting",
                .product(name: "Serialization", package: "Serialization"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings),
        // A real PostgreSQL server per test (initdb + postgres on 127.0.0.1), for our tests and users'.
        .target(name: "StoragePostgresTesting", swiftSettings: swiftSettings),
        .testTarget(
            name: "StoragePostgresTestingTests",
            dependencies: ["StoragePostgresTesting", "StoragePostgres", "Storage"],
            swiftSettings: swiftSettings),
        // The child process of the two-process PostgreSQL test; the test finds it beside itself.
        .executableTarget(
            name: "StoragePostgresProbe", dependencies: ["Storage", "StoragePostgres", "StorageSQLite"],
            swiftSettings: swiftSettings),
        // The sync protocol's server routes (Hummingbird), over a RecordStore's change feed and receipts.
        .target(
            name: "StorageSyncServer",
            dependencies: [
                .product(name: "Errors", package: "Errors"), "Storage",
                .product(name: "_KitSupport", package: "Support"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "StorageSyncServerTests",
            dependencies: [
                "StorageSyncServer", "Storage", "StorageSQLite", "StoragePostgres", "StoragePostgresTesting",
                "StorageSyncServerProbe", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),
        // The sync server a test kills between a write's commit and its response.
        .executableTarget(
            name: "StorageSyncServerProbe",
            dependencies: [
                "Storage", "StorageSQLite", "StoragePostgres", "StorageSyncServer",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings),
    ]
)
