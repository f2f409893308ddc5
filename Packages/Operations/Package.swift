// swift-tools-version: 6.0
// Standalone manifest for the Operations package: `swift test --package-path Packages/Operations`.
// Must agree with the root manifest (checked by Tools/Scripts/check-manifests.py).
import PackageDescription

let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Operations",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "Operations", targets: ["Operations"])
    ],
    dependencies: [
        .package(path: "../Errors"),
        .package(path: "../Support"),
    ],
    targets: [
        .target(
            name: "Operations",
            dependencies: [
                .product(name: "Errors", package: "Errors"), .product(name: "_KitSupport", package: "Support"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "OperationsTests",
            dependencies: [
                "Operations", .product(name: "Errors", package: "Errors"),
                .product(name: "_KitSupport", package: "Support"),
            ],
            swiftSettings: swiftSettings),
    ]
)
