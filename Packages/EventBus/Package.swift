// swift-tools-version: 6.0
// Standalone manifest for the EventBus package: `swift test --package-path Packages/EventBus`.
// Must agree with the root manifest (checked by Tools/Scripts/check-manifests.py).
import PackageDescription

let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "EventBus",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "EventBus", targets: ["EventBus"])
    ],
    dependencies: [

    ],
    targets: [
        .target(name: "EventBus", dependencies: [], swiftSettings: swiftSettings),
        .testTarget(name: "EventBusTests", dependencies: ["EventBus"], swiftSettings: swiftSettings),
    ]
)
