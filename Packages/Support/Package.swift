// swift-tools-version: 6.0
// Standalone manifest for the Support package: `swift test --package-path Packages/Support`.
// Must agree with the root manifest (checked by Tools/Scripts/check-manifests.py).
//
// `_KitSupport` is the kit's internal plumbing (the one lock, the deadline, the text display and
// the Swift-literal escaping). It is a product here only because a nested manifest can depend on
// nothing else of another package; the root manifest lists it as a plain target, so users of the
// kit never see it.
import PackageDescription

let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Support",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "_KitSupport", targets: ["_KitSupport"])
    ],
    dependencies: [

    ],
    targets: [
        .target(name: "_KitSupport", dependencies: [], swiftSettings: swiftSettings),
        .testTarget(name: "_KitSupportTests", dependencies: ["_KitSupport"], swiftSettings: swiftSettings),
    ]
)
