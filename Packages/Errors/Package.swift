// swift-tools-version: 6.0
// Standalone manifest for the Errors package: `swift test --package-path Packages/Errors`.
// Must agree with the root manifest (checked by Tools/Scripts/check-manifests.py).
import PackageDescription

let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Errors",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
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
