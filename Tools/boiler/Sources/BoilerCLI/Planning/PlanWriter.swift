import Foundation

/// Writes a ``ScaffoldPlan`` so that a failure leaves nothing half-made.
///
/// Every file is first rendered into a temporary folder beside the target (same volume, so
/// moves are renames). A target that does not exist yet is then created by one rename; files
/// added to an existing folder (`--force`) are moved in one by one and moved back out if any
/// move fails. Files that already exist are never overwritten: they are reported as kept.
public struct PlanWriter {
    /// The outcome of writing a plan.
    public struct Outcome: Sendable, Equatable {
        /// Paths written, relative to the project folder.
        public var written: [String]
        /// Paths that already existed and were left untouched.
        public var kept: [String]
    }

    let fileManager = FileManager.default

    /// Creates a writer.
    public init() {}

    /// Writes `plan`, keeping existing files when `force` is set and refusing otherwise.
    /// - Throws: ``BoilerError/conflicts(folder:paths:)`` when files exist and `force` is off;
    ///   ``BoilerError/writeFailed(path:reason:)`` when writing fails (after undoing what was done).
    public func write(_ plan: ScaffoldPlan, force: Bool) throws(BoilerError) -> Outcome {
        let conflicts = plan.conflicts()
        if !conflicts.isEmpty && !force {
            throw .conflicts(folder: plan.folder.path, paths: conflicts)
        }
        // Nothing may land outside the folder, through `..` or a symbolic link already there.
        for file in plan.files { try ProjectPaths.checkInside(file.path, root: plan.folder) }
        let kept = Set(conflicts)
        let parent = plan.folder.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".boiler-staging-\(UUID().uuidString)")
        defer { try? fileManager.removeItem(at: staging) }
        let stagedProject = staging.appendingPathComponent("project")
        let toWrite = plan.files.filter { !kept.contains($0.path) }
        do {
            try fileManager.createDirectory(at: stagedProject, withIntermediateDirectories: true)
            for file in toWrite { try stage(file, in: stagedProject) }
        } catch {
            throw .writeFailed(path: parent.path, reason: error.userMessage)
        }
        if !fileManager.fileExists(atPath: plan.folder.path) {
            do {
                try fileManager.moveItem(at: stagedProject, to: plan.folder)
            } catch {
                throw .writeFailed(path: plan.folder.path, reason: error.userMessage)
            }
        } else {
            try moveIn(toWrite.map(\.path), from: stagedProject, to: plan.folder)
        }
        return Outcome(written: toWrite.map(\.path), kept: conflicts)
    }

    private func stage(_ file: PlannedFile, in folder: URL) throws {
        let url = folder.appendingPathComponent(file.path)
        try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(file.contents.utf8).write(to: url)
        if file.isExecutable {
            try fileManager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
    }

    /// Moves staged files into an existing folder; on failure moves back what was moved and
    /// removes the folders it created.
    private func moveIn(_ paths: [String], from staged: URL, to folder: URL) throws(BoilerError) {
        var moved: [String] = []
        var createdFolders: [URL] = []
        do {
            for path in paths {
                let destination = folder.appendingPathComponent(path)
                createdFolders += try makeParents(of: destination, within: folder)
                try fileManager.moveItem(at: staged.appendingPathComponent(path), to: destination)
                moved.append(path)
            }
        } catch {
            for path in moved.reversed() {
                try? fileManager.moveItem(
                    at: folder.appendingPathComponent(path), to: staged.appendingPathComponent(path))
            }
            for created in createdFolders.reversed() { try? fileManager.removeItem(at: created) }
            throw .writeFailed(path: folder.path, reason: error.userMessage)
        }
    }

    /// Creates the missing parent folders of `url` below `root`, returning them outermost first.
    private func makeParents(of url: URL, within root: URL) throws -> [URL] {
        var missing: [URL] = []
        var parent = url.deletingLastPathComponent()
        while parent.path.count > root.path.count, !fileManager.fileExists(atPath: parent.path) {
            missing.insert(parent, at: 0)
            parent = parent.deletingLastPathComponent()
        }
        for folder in missing { try fileManager.createDirectory(at: folder, withIntermediateDirectories: false) }
        return missing
    }
}
