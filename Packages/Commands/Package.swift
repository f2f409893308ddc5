// swift-tools-version: 6.0
// Standalone manifest for the Commands package: `swift test --package-path Packages/Commands`.
// Must agree with the root manifest (checked by Tools/Scripts/check-manifests.py).
import PackageDescription

let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Commands",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "Commands", targets: ["Commands"]),
        .library(name: "CommandsTesting", targets: ["CommandsTesting"]),
    ],
    dependencies: [
        .package(path: "../Errors"),
        .package(path: "../Support"),
    ],
    targets: [
        .target(
            name: "Commands",
            dependencies: [
                .product(name: "Errors", package: "Errors"), .product(name: "_KitSupport", package: "Support"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "CommandsTests",
            dependencies: [
                "Commands", .product(name: "Errors", package: "Errors"),
                .product(name: "_KitSupport", package: "Support"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "CommandsTesting", dependencies: ["Commands", .product(name: "_KitSupport", package: "Support")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "CommandsTestingTests",
            dependencies: [
                "CommandsTesting", "Commands", .product(name: "Errors", package: "Errors"),
                .product(name: "_KitSupport", package: "Support"),
            ],
            swiftSettings: swiftSettings),
    ]
)
