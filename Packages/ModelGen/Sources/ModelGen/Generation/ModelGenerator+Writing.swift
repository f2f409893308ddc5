import Foundation

extension ModelGenerator {
    /// Writes rendered files: machine files when their content differs, human files only when
    /// missing; then finds (and, if asked, prunes) orphaned machine files.
    ///
    /// The folder's generation manifest, `.modelgen-manifest.json`, records every machine file
    /// written and the design it came from. Ownership comes only from it:
    ///
    /// - a machine file replaces an existing file only when the manifest lists that file, or
    ///   when the bytes are already the same; anything else is
    ///   ``ModelGenError/unownedFile(path:)`` unless ``GenerationOptions/force`` is set;
    /// - orphans are files the manifest lists for the same design whose entity is gone. Pruning
    ///   removes one only while its bytes match what was written; edited ones are
    ///   ``ModelGenError/editedOrphans(paths:)`` unless ``GenerationOptions/force`` is set.
    ///
    /// Every check happens before the first write, so an error writes and removes nothing.
    /// - Parameters:
    ///   - files: What `render(_:designFile:)` returned, for a design or a history.
    ///   - output: The folder for machine files (and human files unless configured elsewhere).
    /// - Returns: What changed; in a dry run, what would change.
    public func write(_ files: [GeneratedFile], into output: URL) throws -> GenerationReport {
        try write(files, into: output, designs: Set(files.map(\.designFile)))
    }

    /// ``write(_:into:)`` for the designs named: their recorded files are orphans when not in
    /// `files`, even when `files` is empty because the design has no entities left.
    /// - Parameter inputs: What the run read, recorded for its one design so that a rerun with
    ///   the same inputs can skip rendering; nil forgets any record for `designs` (files written
    ///   another way must not let a later run skip).
    func write(
        _ files: [GeneratedFile], into output: URL, designs: Set<String>,
        inputs: (design: String, record: GenerationInputs)? = nil
    ) throws -> GenerationReport {
        var report = GenerationReport()
        let humanFolder = options.humanDirectory ?? output
        let previous = try GenerationManifest.load(from: output)
        var manifest = previous
        for design in designs { manifest.inputs?[design] = nil }
        if let inputs { manifest.inputs = (manifest.inputs ?? [:]).merging([inputs.design: inputs.record]) { $1 } }
        if manifest.inputs?.isEmpty == true { manifest.inputs = nil }
        var pending: [(URL, Data)] = []
        var unowned: [String] = []
        for file in files {
            switch file.kind {
            case .machine:
                let url = output.appendingPathComponent(file.name)
                let data = Data(file.contents.utf8)
                let existing = try? Data(contentsOf: url)
                if existing == data {
                    report.unchanged.append(url.path)
                } else {
                    let exists = existing != nil || FileManager.default.fileExists(atPath: url.path)
                    if exists && previous.files[file.name] == nil && !options.force { unowned.append(url.path) }
                    pending.append((url, data))
                    report.written.append(url.path)
                }
                manifest.files[file.name] = .init(design: file.designFile, sha256: SHA256Digest.hex(bytes: data))
            case .human:
                let url = humanFolder.appendingPathComponent(file.name)
                if FileManager.default.fileExists(atPath: url.path) || Self.isSymbolicLink(url) {
                    report.keptHumanFiles.append(url.path)
                } else {
                    pending.append((url, Data(file.contents.utf8)))
                    report.createdHumanFiles.append(url.path)
                }
            }
        }
        if let first = unowned.first { throw ModelGenError.unownedFile(path: first) }

        var expected = Set(files.filter { $0.kind == .machine }.map(\.name))
        if humanFolder.standardizedFileURL == output.standardizedFileURL {
            // A recorded machine file that is now an entity's human file (`Draft` renamed to
            // `_Draft`) is that file from now on, never an orphan.
            expected.formUnion(files.filter { $0.kind == .human }.map(\.name))
        }
        var removals: [URL] = []
        var edited: [String] = []
        for (name, entry) in previous.files.sorted(by: { $0.key < $1.key })
        where !expected.contains(name) && designs.contains(entry.design) {
            let url = output.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: url) else {
                // Gone already (or unreadable): nothing to prune, and nothing to remember.
                if !FileManager.default.fileExists(atPath: url.path) { manifest.files[name] = nil }
                continue
            }
            report.orphans.append(url.path)
            guard options.prunesOrphans else { continue }
            if SHA256Digest.hex(bytes: data) != entry.sha256 && !options.force {
                edited.append(url.path)
            } else {
                removals.append(url)
                report.pruned.append(url.path)
                manifest.files[name] = nil
            }
        }
        if !edited.isEmpty { throw ModelGenError.editedOrphans(paths: edited) }

        report.manifestChanged =
            manifest != previous
            || !FileManager.default.fileExists(
                atPath: output.appendingPathComponent(GenerationManifest.fileName).path)
        guard !options.isDryRun else { return report }
        try createFolder(output)
        if !report.createdHumanFiles.isEmpty { try createFolder(humanFolder) }
        // The manifest goes first: a run cut off half-way still owns whatever it wrote.
        if report.manifestChanged {
            try save(try manifest.encoded(), to: output.appendingPathComponent(GenerationManifest.fileName))
        }
        for (url, data) in pending { try save(data, to: url) }
        for url in removals {
            do {
                try FileManager.default.removeItem(at: url)
            } catch {
                throw ModelGenError.writeFailed(path: url.path, reason: (error as NSError).localizedDescription)
            }
        }
        return report
    }

    static func isSymbolicLink(_ url: URL) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil
    }

    private func createFolder(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ModelGenError.writeFailed(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }

    private func save(_ data: Data, to url: URL) throws {
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw ModelGenError.writeFailed(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }
}
