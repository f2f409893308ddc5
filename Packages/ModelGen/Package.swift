// swift-tools-version: 6.0
// Standalone manifest for the ModelGen package: `swift test --package-path Packages/ModelGen`.
// Must agree with the root manifest (checked by Tools/Scripts/check-manifests.py).
import PackageDescription

let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "ModelGen",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "ModelGen", targets: ["ModelGen"]),
        .plugin(name: "ModelGenPlugin", targets: ["ModelGenPlugin"]),
        .plugin(name: "GenerateModels", targets: ["GenerateModels"]),
    ],
    dependencies: [
        .package(path: "../Errors"),
        .package(path: "../Serialization"),
        .package(path: "../Support"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .target(
            name: "ModelGen",
            dependencies: [
                .product(name: "Errors", package: "Errors"), .product(name: "_KitSupport", package: "Support"),
                .product(name: "Yams", package: "Yams"), .product(name: "Mustache", package: "swift-mustache"),
            ], resources: [.copy("Templates")], swiftSettings: swiftSettings),
        .executableTarget(name: "modelgen", dependencies: ["ModelGen"], swiftSettings: swiftSettings),
        .plugin(name: "ModelGenPlugin", capability: .buildTool(), dependencies: ["modelgen"]),
        .plugin(
            name: "GenerateModels",
            capability: .command(
                intent: .custom(
                    verb: "generate-models",
                    description: "Generate Swift models from the model designs in the package's targets"),
                permissions: [
                    .writeToPackageDirectory(reason: "Writes machine files and creates missing human files")
                ]),
            dependencies: ["modelgen"]),
        .testTarget(
            name: "ModelGenTests",
            dependencies: [
                "ModelGen", .product(name: "Serialization", package: "Serialization"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Golden"], swiftSettings: swiftSettings),
    ]
)
