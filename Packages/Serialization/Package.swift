// swift-tools-version: 6.0
// Standalone manifest for the Serialization package: `swift test --package-path Packages/Serialization`.
// Must agree with the root manifest (checked by Tools/Scripts/check-manifests.py).
import PackageDescription

let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Serialization",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "Serialization", targets: ["Serialization"]),
        .library(name: "SerializationYAML", targets: ["SerializationYAML"]),
    ],
    dependencies: [
        .package(path: "../Errors"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // Test only: seeded random trees for the round-trip properties.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .target(
            name: "Serialization", dependencies: [.product(name: "Errors", package: "Errors")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SerializationTests",
            dependencies: [
                "Serialization", "SerializationYAML",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "SerializationYAML", dependencies: ["Serialization", .product(name: "Yams", package: "Yams")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SerializationYAMLTests", dependencies: ["SerializationYAML", "Serialization"],
            swiftSettings: swiftSettings),
    ]
)
