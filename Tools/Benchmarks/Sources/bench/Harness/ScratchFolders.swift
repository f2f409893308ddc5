import Foundation

/// Temporary folders the suites work in, removed when the run ends: a suite's databases live as
/// long as its cases (several cases share one), so no case can remove them itself, and a run
/// must leave nothing behind in the temporary folder.
enum ScratchFolders {
    /// The folders made so far; only touched under `lock`.
    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var folders: [URL] = []
    }
    private static let registry = Registry()

    /// A new, empty folder in the temporary folder, named `prefix-<UUID>`, removed by ``removeAll()``.
    static func make(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        // Registered before it exists, so a failure half-way through still gets it removed.
        registry.lock.withLock { registry.folders.append(folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Removes every folder ``make(_:)`` made, with its contents.
    static func removeAll() {
        let folders = registry.lock.withLock {
            defer { registry.folders.removeAll() }
            return registry.folders
        }
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
    }
}
