// swift-tools-version: 6.0
// Standalone manifest for the Errors package: `swift test --package-path Packages/Errors`.
// Must agree with the root manifest (checked by Tools/Scripts/check-manifests.py).
import PackageDescription

let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Errors",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Errors", targets: ["Errors"])
    ],
    dependencies: [

    ],
    targets: [
        .target(name: "Errors", dependencies: [], swiftSettings: swiftSettings),
        .testTarget(name: "ErrorsTests", dependencies: ["Errors"], swiftSettings: swiftSettings),
    ]
)
