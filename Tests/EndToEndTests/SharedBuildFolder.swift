import Foundation

/// Where the projects these tests generate keep their build products.
///
/// By default each project builds in its own `.build`, as a user's would. `make test` names the
/// kit's own build folder instead (`BOILERPLATE_SHARED_BUILD`), with the flags that folder was
/// built with (`BOILERPLATE_SHARED_BUILD_FLAGS`): SwiftPM then reuses every module it already
/// compiled there — the kit, NIO, GRDB, Yams — and compiles only the project's own code, where
/// a folder of its own compiles them all again (a server project: about 300 s instead of 30 s).
///
/// The copy in ModelGen's tests (`Support/SharedBuildFolder.swift`) has the same name and API.
enum SharedBuildFolder {
    /// The shared folder, or nil when each project builds in its own.
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

    /// The folder `swift build` puts `project`'s debug executables in.
    static func products(of project: URL) -> URL {
        (url ?? project.appendingPathComponent(".build")).appendingPathComponent("debug")
    }

    /// `arguments` (a `swift` subcommand and its options) with the shared options after the subcommand.
    static func swiftArguments(_ arguments: [String]) -> [String] {
        guard let subcommand = arguments.first, ["build", "test", "run", "package"].contains(subcommand) else {
            return arguments
        }
        return [subcommand] + options + arguments.dropFirst()
    }
}
