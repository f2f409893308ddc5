import Foundation

/// Executables of the root package that tests run as child processes (the crash probe, the
/// services probe). SwiftPM builds them into the folder that holds the test bundle; which path
/// names that folder differs between platforms and runners, so each candidate is tried.
enum BuiltExecutable {
    /// The executable `name` built beside the tests, or nil when it is not there.
    static func url(named name: String) -> URL? {
        var folders = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map {
            $0.bundleURL.deletingLastPathComponent()
        }
        #if os(Linux)
            if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                folders.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
            }
        #endif
        folders.append(Bundle.main.bundleURL)
        return folders.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
