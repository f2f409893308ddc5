import Foundation

/// Where the scratch packages these tests build keep their build products.
///
/// By default each package builds in its own `.build`, as a user's would. `make test` names the
/// kit's own build folder instead (`BOILERPLATE_SHARED_BUILD`), with the flags that folder was
/// built with (`BOILERPLATE_SHARED_BUILD_FLAGS`): SwiftPM then reuses every module it already
/// compiled there (the kit's modules) and compiles only the package's own code. The scratch
/// packages depend on the repository's root package, as users do, so that those modules are the
/// very ones the root build made.
///
/// Every module built in the folder is visible to every later build there, so a package whose
/// modules are named like a system module (CompileTests' stub `UIKit`) must build elsewhere.
///
/// The copy in the end-to-end tests (`Tests/EndToEndTests/SharedBuildFolder.swift`) has the same
/// name and API: each test target builds alone, so each carries its own.
enum SharedBuildFolder {
    /// The shared folder, or nil when each package builds in its own.
    static let url: URL? = ProcessInfo.processInfo.environment["BOILERPLATE_SHARED_BUILD"].flatMap {
        $0.isEmpty ? nil : URL(fileURLWithPath: $0)
    }

    /// The options to give `swift build`, `swift test`, `swift run` and `swift package` right after
    /// the subcommand: the folder, the flags, and a new build plan every time, because the plan
    /// SwiftPM caches in the folder may be another project's.
    static var options: [String] {
        guard let url else { return [] }
        let flags = ProcessInfo.processInfo.environment["BOILERPLATE_SHARED_BUILD_FLAGS"] ?? ""
        return ["--scratch-path", url.path, "--disable-build-manifest-caching"]
            + flags.split(separator: " ").map(String.init)
    }

    /// The folder `swift build` puts `package`'s debug executables in.
    static func products(of package: URL) -> URL {
        (url ?? package.appendingPathComponent(".build")).appendingPathComponent("debug")
    }

    /// `arguments` (a `swift` subcommand and its options) with the shared options after the subcommand.
    static func swiftArguments(_ arguments: [String]) -> [String] {
        guard let subcommand = arguments.first, ["build", "test", "run", "package"].contains(subcommand) else {
            return arguments
        }
        return [subcommand] + options + arguments.dropFirst()
    }
}
