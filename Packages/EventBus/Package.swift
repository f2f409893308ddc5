// swift-tools-version: 6.0
// Standalone manifest for the EventBus package: `swift test --package-path Packages/EventBus`.
// Must agree with the root manifest (checked by Tools/Scripts/check-manifests.py).
import PackageDescription

let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "EventBus",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "EventBus", targets: ["EventBus"])
    ],
    dependencies: [
        .package(path: "../Support")
    ],
    targets: [
        .target(
            name: "EventBus", dependencies: [.product(name: "_KitSupport", package: "Support")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "EventBusTests", dependencies: ["EventBus", .product(name: "_KitSupport", package: "Support")],
            swiftSettings: swiftSettings),
    ]
)
