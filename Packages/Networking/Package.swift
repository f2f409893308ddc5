// swift-tools-version: 6.0
// Standalone manifest for the Networking package: `swift test --package-path Packages/Networking`.
// Must agree with the root manifest (checked by Tools/Scripts/check-manifests.py).
import PackageDescription

let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Networking",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "Networking", targets: ["Networking"]),
        .library(name: "NetworkingAsyncHTTPClient", targets: ["NetworkingAsyncHTTPClient"]),
        .library(name: "NetworkingTesting", targets: ["NetworkingTesting"]),
    ],
    dependencies: [
        .package(path: "../Errors"),
        .package(path: "../Serialization"),
        .package(path: "../Support"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "Networking",
            dependencies: [
                .product(name: "Errors", package: "Errors"), .product(name: "Serialization", package: "Serialization"),
                .product(name: "_KitSupport", package: "Support"),
            ], swiftSettings: swiftSettings),
        .testTarget(
            name: "NetworkingTests",
            dependencies: [
                "Networking", .product(name: "Serialization", package: "Serialization"), "NetworkingTesting",
                .product(name: "_KitSupport", package: "Support"), .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "NetworkingAsyncHTTPClient",
            dependencies: [
                "Networking", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "NetworkingAsyncHTTPClientTests",
            dependencies: [
                "NetworkingAsyncHTTPClient", "Networking", "NetworkingTesting",
                .product(name: "_KitSupport", package: "Support"), .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            swiftSettings: swiftSettings),
        // Test doubles for apps and the kit's own suites: a loopback server and a stub transport.
        .target(
            name: "NetworkingTesting",
            dependencies: [
                "Networking", .product(name: "_KitSupport", package: "Support"),
                .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "NetworkingTestingTests",
            dependencies: ["NetworkingTesting", "Networking", .product(name: "FlyingFox", package: "FlyingFox")],
            swiftSettings: swiftSettings),
    ]
)
