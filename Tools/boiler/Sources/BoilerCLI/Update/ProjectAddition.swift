import Foundation

/// `boiler add` is an update whose record grew: the one write path of ``PartAdder`` and
/// ``ResourceAdder``, which only check the name and grow the record
/// (``ProjectRecord/adding(_:named:)``, ``ProjectRecord/adding(_:)``).
///
/// ``ProjectRenderer`` renders the record before and after it grew; the files whose rendering
/// changed (the part's or resource's new files and the machine files that list it) are planned
/// by ``UpdatePlanner``, file by file as `boiler update` plans them, and the new files, their
/// bases and the record are committed once, through ``UpdateTransaction``: a process killed at
/// any step leaves the project as it was, or with a journal the next `boiler add` or
/// `boiler update` finishes.
///
/// A machine file edited by hand is merged three ways, as `boiler update` merges it (the base
/// under `.boiler/base/`, the user's file, the new rendering): the user's lines stay and the new
/// part is wired in; lines both changed are marked as conflicts and listed. A new file where a
/// file already is refuses the add (``BoilerError/conflicts(folder:paths:)``, exit 73).
struct ProjectAddition {
    /// What an add wrote, or would write.
    struct Outcome: Sendable {
        /// The project files written (or planned, in a dry run), sorted: new files and machine files.
        var written: [String]
        /// What to do next, for the user.
        var hint: String?
        /// The plan, as `boiler update --dry-run` lists one.
        var plan: UpdatePlan

        /// The files written with conflict markers.
        var conflicts: [String] { plan.conflicts }
    }

    /// The project folder.
    let folder: URL

    /// The record of the project in `folder`, checked: it is a file anyone can edit, and its
    /// names become paths and Swift source.
    static func record(in folder: URL) throws(BoilerError) -> ProjectRecord {
        let record = try ProjectRecord.read(in: folder)
        try record.validate(path: folder.appendingPathComponent(ProjectRecord.fileName).path)
        return record
    }

    /// Grows the project of `record` to `grown`: plans it, and unless `dryRun` commits it.
    /// - Throws: as ``plan(_:to:)`` and ``commit(_:hint:dryRun:)``.
    func add(
        _ grown: ProjectRecord, to record: ProjectRecord, hint: String?, dryRun: Bool
    ) throws(BoilerError)
        -> Outcome
    {
        try commit(plan(grown, to: record), hint: hint, dryRun: dryRun)
    }

    /// The plan that grows the project of `record` to `grown`: the files whose rendering the
    /// growth changed, planned as `boiler update` plans them. Reads files; writes nothing.
    /// - Throws: ``BoilerError/conflicts(folder:paths:)`` for a new file where a file is;
    ///   ``BoilerError/outsideProject(path:reason:)`` for a path that would leave the project;
    ///   the renderer's and the planner's errors.
    func plan(_ grown: ProjectRecord, to record: ProjectRecord) throws(BoilerError) -> UpdatePlan {
        let before = try ProjectRenderer.render(record, in: folder)
        let after = try ProjectRenderer.render(grown, in: folder)
        let changed = Set(
            after.filter { path, file in
                before[path].map { !$0.contents.utf8.elementsEqual(file.contents.utf8) } ?? true
            }.keys)
        for path in changed.sorted() + [ProjectRecord.fileName] { try ProjectPaths.checkInside(path, root: folder) }
        let occupied = changed.filter { path in
            record.files[path] == nil
                && FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path)
        }
        if !occupied.isEmpty { throw .conflicts(folder: folder.path, paths: occupied.sorted()) }
        return try UpdatePlanner(folder: folder, engine: .preferred()).plan(grown, rendering: after, only: changed)
    }

    /// Commits `plan` in one ``UpdateTransaction``, unless `dryRun`.
    /// - Throws: the transaction's errors: nothing is written before its commit point, and after
    ///   it the next `boiler add` or `boiler update` finishes the add.
    func commit(_ plan: UpdatePlan, hint: String?, dryRun: Bool) throws(BoilerError) -> Outcome {
        let written = plan.entries.filter { [.add, .update, .merge, .conflict].contains($0.action) }.map(\.path)
        if !dryRun { try UpdateTransaction.commit(plan.changes, in: folder) }
        return Outcome(written: written, hint: hint, plan: plan)
    }
}

extension ProjectRecord {
    /// The record with the part `name` of `kind` added: the one place `boiler add` records a
    /// command, route, service or model, in the order they were added, so that the renderer
    /// renders it. A resource is added with its fields, by ``adding(_:)``.
    func adding(_ kind: AddPart.Kind, named name: String) -> ProjectRecord {
        var record = self
        var parts = self.parts ?? Parts()
        switch kind {
        case .command: parts.commands = (parts.commands ?? []) + [name]
        case .route: parts.routes.append(name)
        case .service: parts.services.append(name)
        case .model: parts.models = (parts.models ?? []) + [name]
        case .resource: return self
        }
        record.parts = parts
        return record
    }

    /// The record with `resource` added, after the resources added before.
    func adding(_ resource: ResourceSpec) -> ProjectRecord {
        var record = self
        record.resources = (resources ?? []) + [resource]
        return record
    }
}
