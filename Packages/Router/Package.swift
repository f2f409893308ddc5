// swift-tools-version: 6.0
// Standalone manifest for the Router package: `swift test --package-path Packages/Router`.
// Must agree with the root manifest (checked by Tools/Scripts/check-manifests.py).
import PackageDescription

let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Router",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "Router", targets: ["Router"])
    ],
    dependencies: [
        .package(path: "../Errors")
    ],
    targets: [
        .target(
            name: "Router", dependencies: [.product(name: "Errors", package: "Errors")], swiftSettings: swiftSettings),
        .testTarget(name: "RouterTests", dependencies: ["Router"], swiftSettings: swiftSettings),
    ]
)
