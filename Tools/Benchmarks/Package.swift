// swift-tools-version: 6.0
// Benchmarks compare the kit with the libraries people would pick instead. They live in their
// own package so that users of the kit never download the peers.
import PackageDescription

/// SwiftPM names a path dependency after its folder, which is whatever the checkout is called.
let kit = String(Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "boilerplate").lowercased()

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/vapor/routing-kit", from: "4.9.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .executableTarget(
            name: "bench",
            dependencies: [
                .product(name: "Boilerplate", package: kit),
                .product(name: "ModelGen", package: kit),
                .product(name: "StorageSQLite", package: kit),
                .product(name: "StoragePostgres", package: kit),
                .product(name: "StoragePostgresTesting", package: kit),
                .product(name: "NetworkingAsyncHTTPClient", package: kit),
                .product(name: "BoilerplateSync", package: kit),
                .product(name: "StorageSyncServer", package: kit),
                .product(name: "RoutingKit", package: "routing-kit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        )
    ]
)
