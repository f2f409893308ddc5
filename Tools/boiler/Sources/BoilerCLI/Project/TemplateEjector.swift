import Foundation

/// `boiler templates --eject NAME`: copies the template files of one template or part into a
/// project's `.boiler/templates/`, where `boiler add` (and `boiler update`) read them in place of
/// boiler's own. Nothing already there is overwritten, and nothing is written through a link
/// that leads out of the project.
struct TemplateEjector {
    /// The project folder.
    let folder: URL

    /// Copies the files of `name`, or only plans them with `dryRun`; returns their paths in the
    /// project.
    /// - Throws: ``BoilerError/notAProject(folder:)`` outside a project,
    ///   ``BoilerError/invalidOption(_:value:expected:)`` for a name that is no template or part,
    ///   ``BoilerError/templateCopiesExist(folder:template:paths:)`` when copies are there already,
    ///   ``BoilerError/outsideProject(path:reason:)`` for a link leading out of the project.
    func eject(_ name: String, dryRun: Bool) throws(BoilerError) -> [String] {
        _ = try ProjectRecord.read(in: folder)
        let store = try TemplateStore()
        let names = store.names
        guard names.contains(name) else {
            throw .invalidOption(
                "eject", value: BoilerError.shown(name),
                expected: "a template or part: " + names.joined(separator: ", "))
        }
        let files = store.files(of: name)
        var targets: [(source: URL, path: String)] = []
        for file in files {
            let path = "\(TemplateStore.overridesFolder)/\(file)"
            try ProjectPaths.checkInside(path, root: folder)
            targets.append((store.bundled.appendingPathComponent(file), path))
        }
        let existing = targets.map(\.path).filter {
            let url = folder.appendingPathComponent($0)
            return FileManager.default.fileExists(atPath: url.path)
                || (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil
        }
        if !existing.isEmpty { throw .templateCopiesExist(folder: folder.path, template: name, paths: existing) }
        if dryRun { return targets.map(\.path) }
        var written: [URL] = []
        do {
            for target in targets {
                let url = folder.appendingPathComponent(target.path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                // withoutOverwriting: a file planted since the check above is not replaced.
                try Data(contentsOf: target.source).write(to: url, options: .withoutOverwriting)
                written.append(url)
            }
        } catch {
            for url in written { try? FileManager.default.removeItem(at: url) }
            throw .writeFailed(
                path: folder.appendingPathComponent(TemplateStore.overridesFolder).path, reason: error.userMessage)
        }
        return targets.map(\.path)
    }
}
