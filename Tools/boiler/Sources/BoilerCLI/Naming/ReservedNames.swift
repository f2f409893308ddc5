/// Module names a project must not take: importing both would be ambiguous or impossible.
enum ReservedNames {
    /// The kit's own modules.
    static let kit: Set<String> = [
        "Boilerplate", "Errors", "Operations", "Commands", "CommandsTesting", "EventBus", "Router",
        "Serialization", "SerializationYAML", "ModelGen", "Storage", "StorageSQLite", "Networking",
        "NetworkingAsyncHTTPClient", "NetworkingTesting", "BoilerCLI",
    ]

    /// The products a project may pick with `--packages`.
    static let kitProducts: Set<String> = [
        "Errors", "Operations", "Commands", "CommandsTesting", "EventBus", "Router", "Serialization",
        "SerializationYAML", "ModelGen", "Storage", "StorageSQLite", "Networking", "NetworkingAsyncHTTPClient",
    ]

    /// Modules of the toolchain and of the kit's dependencies.
    static let platform: Set<String> = [
        "Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
        "FoundationXML", "Dispatch", "XCTest", "Testing", "Observation", "Synchronization", "Distributed",
        "RegexBuilder", "Cxx", "CxxStdlib", "Glibc", "Musl", "Darwin", "WinSDK", "SwiftUI", "UIKit", "AppKit",
        "Combine", "CoreData", "SwiftData", "ArgumentParser", "Yams", "Mustache", "GRDB", "AsyncHTTPClient",
        "PackageDescription", "PackagePlugin", "_Concurrency", "_StringProcessing",
    ]

    /// The name a project would collide with, compared without regard to case (file systems
    /// on macOS ignore it), or nil when the name is free.
    static func collision(for module: String) -> String? {
        let lowered = module.lowercased()
        return (kit.union(platform)).first { $0.lowercased() == lowered }
    }
}
