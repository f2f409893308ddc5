import Foundation

/// What `boiler update` does to each file boiler wrote, decided before anything is written.
public struct UpdatePlan: Sendable {
    /// What happens to one file.
    public enum Action: String, Sendable, CaseIterable {
        /// Untouched by the user, changed in the templates: replaced by the new rendering.
        case update
        /// Changed by the user, not in the templates: left alone.
        case keep
        /// Changed on both sides and merged cleanly.
        case merge
        /// Changed on both sides in the same lines, or a user's file where a new template file
        /// goes, or deleted by the user and changed in the templates: marked, or left, for the user.
        case conflict
        /// New in the templates: written.
        case add
        /// Gone from the templates and untouched by the user: removed.
        case remove
        /// Gone from the templates but changed by the user: kept, and no longer boiler's.
        case kept
        /// Nothing to do: the file is already what the templates render.
        case unchanged
    }

    /// One file's fate.
    public struct Entry: Sendable, Equatable {
        /// The path relative to the project.
        public var path: String
        /// What happens to it.
        public var action: Action
        /// Why, when the action alone does not say.
        public var note: String?
    }

    /// Every file the record or the templates name, sorted by path.
    public var entries: [Entry]
    /// The writes and removals, bases and record included (backups are added when writing).
    public var changes: ProjectChanges
    /// The record after the update.
    public var record: ProjectRecord
    /// The merge engine used.
    public var engine: MergeEngine

    /// The files with a conflict.
    public var conflicts: [String] { entries.filter { $0.action == .conflict }.map(\.path) }

    /// The project files (not bases, not the record) the update writes or removes.
    public var changedFiles: [String] {
        entries.filter { [.update, .merge, .conflict, .add, .remove].contains($0.action) }.map(\.path)
    }

    /// The report of `--dry-run`, the same for `boiler update` and `boiler add`: where, by which
    /// merge engine, one line per file that something happens to, and how many are as rendered.
    public func dryRunReport(for folder: URL) -> [String] {
        let same = entries.filter { $0.action == .unchanged }.count
        return ["Plan for \(folder.path) (dry run, nothing written; merges by \(engine.name)):"]
            + listing().map { "  \($0)" } + ["  \(same) file(s) already as the templates render them"]
    }

    /// One line per file that something happens to, for `--dry-run` and the summary.
    public func listing() -> [String] {
        entries.filter { $0.action != .unchanged }.map { entry in
            let action = entry.action.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
            return "\(action) \(entry.path)" + (entry.note.map { " (\($0))" } ?? "")
        }
    }
}

/// Plans `boiler update` for the project in ``folder``: for every file boiler wrote, compares what
/// boiler wrote then (the base), the file now (ours) and the new rendering (theirs).
struct UpdatePlanner {
    let folder: URL
    let engine: MergeEngine

    /// The plan for `record` (already validated): every file it or the templates name, and the
    /// record then names this boiler's template version. Reads files; writes nothing.
    /// - Throws: ``BoilerError/invalidBase(path:reason:)``, ``BoilerError/unmergeable(path:reason:)``,
    ///   ``BoilerError/outsideProject(path:reason:)``, or a merge engine's failure.
    func plan(_ record: ProjectRecord) throws(BoilerError) -> UpdatePlan {
        try plan(record, rendering: ProjectRenderer.render(record, in: folder), only: nil)
    }

    /// The plan for `record` rendered as `theirs`, for the files at `paths` alone (`boiler add`:
    /// the files its grown record renders differently), or for every file when nil. Only a whole
    /// update moves the record's template version: an add leaves the project's other files as
    /// they are, rendered by whichever boiler wrote them.
    func plan(
        _ record: ProjectRecord, rendering theirs: [String: PlannedFile], only paths: Set<String>?
    ) throws(BoilerError) -> UpdatePlan {
        let version = ProjectBase.templateVersion
        var next = record
        var versions = record.fileVersions ?? [:]
        var entries: [UpdatePlan.Entry] = []
        var changes = ProjectChanges()

        func write(_ path: String, _ text: String, executable: Bool) {
            let mode =
                (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path))?[
                    .posixPermissions] as? Int
            changes.writes.append(
                ProjectChanges.Write(
                    path: path, contents: Data(text.utf8), mode: mode ?? (executable ? 0o755 : 0o644)))
        }
        func track(_ path: String, base new: String, old: String?) {
            next.files[path] = ProjectRecord.hash(new)
            versions[path] = version
            if old.map({ !same($0, new) }) ?? true
                || !FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(ProjectBase.path(of: path)).path)
            {
                changes.writes.append(
                    ProjectChanges.Write(path: ProjectBase.path(of: path), contents: Data(new.utf8)))
            }
        }
        func forget(_ path: String) {
            next.files[path] = nil
            versions[path] = nil
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(ProjectBase.path(of: path)).path) {
                changes.removals.append(ProjectBase.path(of: path))
            }
        }

        for path in (paths ?? Set(record.files.keys).union(theirs.keys)).sorted() {
            let mine = try ProjectBase.readProjectFile(path, in: folder)
            let new = theirs[path]
            let labels = MergeLabels(
                ours: "yours: \(path)", base: "boiler \(record.fileVersions?[path] ?? "earlier"): \(path)",
                theirs: "boiler \(version): \(path)")
            guard let recorded = record.files[path] else {
                // A new template file.
                guard let new else { continue }
                if let mine {
                    if same(mine, new.contents) {
                        entries.append(.init(path: path, action: .unchanged, note: nil))
                    } else {
                        let merged = try engine.merge(base: "", ours: mine, theirs: new.contents, labels: labels)
                        write(path, merged.text, executable: new.isExecutable)
                        entries.append(
                            .init(
                                path: path, action: merged.isClean ? .merge : .conflict,
                                note: "new in the templates, and a file of yours is already there"))
                    }
                } else {
                    write(path, new.contents, executable: new.isExecutable)
                    entries.append(.init(path: path, action: .add, note: nil))
                }
                track(path, base: new.contents, old: nil)
                continue
            }
            // A file gone from both the project and the templates needs no base.
            let base = mine == nil && new == nil ? "" : try baseText(path, recorded: recorded, mine: mine)
            guard let new else {
                // Gone from the templates.
                if mine == nil {
                    entries.append(.init(path: path, action: .remove, note: "deleted already"))
                } else if same(mine ?? "", base) {
                    changes.removals.append(path)
                    entries.append(.init(path: path, action: .remove, note: nil))
                } else {
                    entries.append(
                        .init(path: path, action: .kept, note: "gone from the templates, but edited by you: yours now"))
                }
                forget(path)
                continue
            }
            guard let mine else {
                // Deleted by the user: their decision, whatever the templates did since. The base
                // moves on, so the next update does not ask again.
                let changed = !same(new.contents, base)
                entries.append(
                    .init(
                        path: path, action: .keep,
                        note: changed
                            ? "deleted by you: not restored, though the templates changed it" : "deleted by you"))
                track(path, base: new.contents, old: base)
                continue
            }
            if same(mine, base) {
                entries.append(.init(path: path, action: same(new.contents, base) ? .unchanged : .update, note: nil))
                if !same(new.contents, base) { write(path, new.contents, executable: new.isExecutable) }
            } else if same(new.contents, base) {
                entries.append(.init(path: path, action: .keep, note: nil))
            } else if same(mine, new.contents) {
                entries.append(.init(path: path, action: .unchanged, note: "already as the templates have it"))
            } else {
                let merged = try engine.merge(base: base, ours: mine, theirs: new.contents, labels: labels)
                write(path, merged.text, executable: new.isExecutable)
                entries.append(
                    .init(
                        path: path, action: merged.isClean ? .merge : .conflict,
                        note: merged.isClean ? nil : "\(merged.conflicts) conflict\(merged.conflicts == 1 ? "" : "s")"))
            }
            track(path, base: new.contents, old: base)
        }
        if paths == nil { next.templateVersion = version }
        next.fileVersions = versions
        if next != record || !changes.isEmpty {
            changes.writes.append(ProjectChanges.Write(path: ProjectRecord.fileName, contents: Data(next.json.utf8)))
        }
        return UpdatePlan(entries: entries, changes: changes, record: next, engine: engine)
    }

    /// Whether two texts are the same bytes (String's `==` also equates canonically equivalent
    /// text, which would take a user's re-normalised file for one they never touched).
    private func same(_ first: String, _ second: String) -> Bool { first.utf8.elementsEqual(second.utf8) }

    /// The base of `path`: the kept copy, checked against the record; or, when it is missing,
    /// the file itself if it still hashes to what boiler wrote.
    private func baseText(_ path: String, recorded: String, mine: String?) throws(BoilerError) -> String {
        if let base = try ProjectBase.read(path, in: folder, hash: recorded) { return base }
        if let mine, ProjectRecord.hash(mine) == recorded { return mine }
        throw .invalidBase(
            path: ProjectBase.path(of: path),
            reason: "is missing, and \(BoilerError.shown(path)) changed since boiler wrote it, so there is nothing "
                + "to merge from")
    }

    /// How far the project is behind this boiler's templates, from the record's hashes alone:
    /// the recorded files whose rendering changed, the template files the record lacks, and the
    /// recorded files the templates no longer have.
    func drift(_ record: ProjectRecord) throws(BoilerError) -> (changed: [String], added: [String], removed: [String]) {
        let theirs = try ProjectRenderer.render(record, in: folder)
        let changed = theirs.filter { path, file in
            record.files[path].map { $0 != ProjectRecord.hash(file.contents) } ?? false
        }.keys.sorted()
        let added = theirs.keys.filter { record.files[$0] == nil }.sorted()
        let removed = record.files.keys.filter { theirs[$0] == nil }.sorted()
        return (changed, added, removed)
    }
}
