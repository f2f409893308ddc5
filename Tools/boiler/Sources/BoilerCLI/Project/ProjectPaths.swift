import Foundation

/// Where boiler may write: only below the project folder, reached without `..` and without a
/// symbolic link that leads out of it. Paths come from templates and from `.boiler.json`,
/// which anyone can edit, so each is checked before anything is written.
enum ProjectPaths {
    /// Whether `path` is relative, uses `/` separators and has no empty, `.` or `..` component,
    /// backslash or control character.
    static func isSafeRelative(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\") else { return false }
        guard !path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0 != "." && $0 != ".."
        }
    }

    /// Refuses `path` when writing it below `root` would land outside `root`.
    /// - Throws: ``BoilerError/outsideProject(path:reason:)`` for a path that is not relative
    ///   and plain, or that passes through a symbolic link leading outside `root` (or nowhere).
    static func checkInside(_ path: String, root: URL, fileManager: FileManager = .default) throws(BoilerError) {
        guard isSafeRelative(path) else {
            throw .outsideProject(path: path, reason: "it is not a relative path inside the project")
        }
        let realRoot = root.resolvingSymlinksInPath().standardizedFileURL.path
        var current = root
        var walked: [Substring] = []
        for component in path.split(separator: "/") {
            current.appendPathComponent(String(component))
            walked.append(component)
            if (try? fileManager.destinationOfSymbolicLink(atPath: current.path)) != nil {
                let resolved = current.resolvingSymlinksInPath().standardizedFileURL.path
                let inside = resolved == realRoot || resolved.hasPrefix(realRoot == "/" ? "/" : realRoot + "/")
                guard inside, fileManager.fileExists(atPath: current.path) else {
                    throw .outsideProject(
                        path: path,
                        reason: "'\(walked.joined(separator: "/"))' is a symbolic link that leads outside the project")
                }
            } else if !fileManager.fileExists(atPath: current.path) {
                return  // Nothing further exists yet, so nothing further can be a link.
            }
        }
    }
}
