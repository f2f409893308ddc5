import Foundation

/// Adds a resource to a project: checks the name and fields, plans the new files, refuses to
/// touch existing ones, and wires a server's resource in through the machine file
/// `Generated/_Resources.swift` — rewritten only when nobody edited it.
///
/// When the wiring file was edited, the new files are still written and the lines to add by hand
/// are returned in ``Outcome/manualStep`` (as `mix phx.gen.json` prints the route to add): the
/// edited file is the user's, and refusing would make them undo their edits to get the resource.
/// The resource is recorded, so the machine file lists it again once it is restored.
public struct ResourceAdder {
    /// What adding a resource wrote, or would write.
    public struct Outcome: Sendable, Equatable {
        /// The files written (or planned, in a dry run), relative to the project, sorted.
        public var written: [String]
        /// Lines the user must add by hand because the wiring file was edited; nil when boiler wired it.
        public var manualStep: String?
        /// What to do next, for the user.
        public var hint: String?
    }

    /// The project folder.
    public let folder: URL

    /// An adder for the project in `folder`.
    public init(folder: URL) { self.folder = folder }

    /// Adds the resource `name` with `fields` (`name:Type` or `name:Type?` each).
    /// - Throws: ``BoilerError/invalidResource(part:value:reason:)`` for a bad name or field (64);
    ///   ``BoilerError/invalidRecord(path:field:reason:)`` for an untrustworthy `.boiler.json` (65);
    ///   ``BoilerError/conflicts(folder:paths:)`` when a file exists, ``BoilerError/outsideProject(path:reason:)``
    ///   for a path that would leave the project (73). Nothing is written when it throws.
    /// - Parameter synced: `--synced`: keep the records in step with the same resource of a server
    ///   project (app projects only; ``BoilerError/invalidOption(_:value:expected:)`` elsewhere).
    public func add(
        _ name: String, fields: [String], synced: Bool = false, dryRun: Bool
    ) throws(BoilerError) -> Outcome {
        var record = try ProjectRecord.read(in: folder)
        // The record is a file anyone can edit: its names become paths and Swift source.
        try record.validate(path: folder.appendingPathComponent(ProjectRecord.fileName).path)
        guard record.template == .server || record.template == .app else {
            throw .invalidOption(
                synced ? "synced" : "kind", value: synced ? record.template.rawValue : "resource",
                expected: "a project made with --template server or app: a \(record.template.rawValue) project has no "
                    + "model to add a resource to")
        }
        if synced && record.template != .app {
            throw .invalidOption(
                "synced", value: record.template.rawValue,
                expected: "an app project: a \(record.template.rawValue) project serves its resources' sync routes "
                    + "(/sync/<resources>) already; add the resource here without --synced, and with --synced in the app"
            )
        }
        var spec = try ResourceSpec(name: name, fields: fields, taken: takenNames(record))
        if synced {
            spec.synced = true
            // The synced resource also declares <Name>SyncService: a service or model of that name
            // (`boiler add service TagSync`) would not compile beside it.
            let service = spec.name + "SyncService"
            let files = record.files.keys.filter { $0.hasPrefix("Sources/") && $0.hasSuffix(".swift") }
            let declared = takenNames(record).union(
                files.map { String(($0 as NSString).lastPathComponent.dropLast(".swift".count)) })
            if let existing = declared.first(where: { $0.lowercased() == service.lowercased() }) {
                throw .invalidResource(
                    part: "name", value: name,
                    reason: "the project already has a type named \(existing), which the synced resource would declare")
            }
        }
        let names = ResourceTemplates.Names(spec: spec, module: record.module)
        let isServer = record.template == .server
        // The project's own copies under .boiler/templates come before boiler's files.
        let store = try TemplateStore(project: folder)
        let files = try store.render(
            isServer ? ResourceTemplates.server(names) : ResourceTemplates.app(spec: spec, module: record.module),
            values: [:])
        let plan = ScaffoldPlan(folder: folder, files: files)
        let conflicts = plan.conflicts()
        if !conflicts.isEmpty { throw .conflicts(folder: folder.path, paths: conflicts) }

        var resources = record.resources ?? []
        resources.append(spec)
        var machines: [PlannedFile] = []
        var manualStep: String?
        if isServer {
            let wiring = try store.render(
                ResourceTemplates.serverWiring(module: record.module, resources: resources), values: [:])
            if isMachineOwned(wiring.path, record: record) {
                machines.append(wiring)
            } else {
                let reason =
                    record.files[wiring.path] == nil
                    ? "is not a file boiler wrote in this project (it predates boiler add resource)"
                    : "was edited by hand"
                manualStep = ResourceTemplates.manualWiring(names, path: wiring.path, reason: reason)
            }
        } else if synced {
            var updated = record
            updated.resources = resources
            var steps: [String] = []
            for file in try syncedMachineFiles(updated) {
                if isMachineOwned(file.path, record: record) {
                    machines.append(file)
                } else {
                    steps.append(ResourceTemplates.manualSyncedStep(names, path: file.path))
                }
            }
            if !steps.isEmpty { manualStep = steps.joined(separator: "\n") }
        }
        let written = (plan.files.map(\.path) + machines.map(\.path)).sorted()
        for path in written + [ProjectRecord.fileName] { try ProjectPaths.checkInside(path, root: folder) }
        let hint = isServer ? nil : synced ? ResourceTemplates.syncedHint(names) : ResourceTemplates.appHint(names)
        if dryRun { return Outcome(written: written, manualStep: manualStep, hint: hint) }

        _ = try PlanWriter().write(plan, force: false)
        do {
            for machine in machines { try write(machine.contents, to: machine.path) }
            for file in plan.files + machines {
                record.files[file.path] = ProjectRecord.hash(file.contents)
            }
            record.resources = resources
            try write(record.json, to: ProjectRecord.fileName)
        } catch {
            for file in plan.files { try? FileManager.default.removeItem(at: folder.appendingPathComponent(file.path)) }
            throw .writeFailed(path: folder.path, reason: error.userMessage)
        }
        return Outcome(written: written, manualStep: manualStep, hint: hint)
    }

    /// The files an app's synced resources change besides their own, rendered for `record` (which
    /// lists the new resource): `Package.swift`, which then depends on `BoilerplateSync`, and the
    /// machine file `Generated/_Parts.swift`, which registers each resource's sync service.
    func syncedMachineFiles(_ record: ProjectRecord) throws(BoilerError) -> [PlannedFile] {
        let rendered = try ProjectRenderer.render(record, in: folder)
        let paths = ["Package.swift", PartTemplates.partsPath(core: "\(record.module)Core")]
        return paths.compactMap { rendered[$0] }
    }

    /// The type names the project has: the template's Note, the resources added before, and the
    /// entities of model designs and model files boiler wrote.
    func takenNames(_ record: ProjectRecord) -> Set<String> {
        var taken: Set<String> = ["Note", record.module, "\(record.module)Core", "\(record.module)Model"]
        for suffix in ["Error", "Database", "Server", "Settings", "Resources", "App"] {
            taken.insert(record.module + suffix)
        }
        // Each resource, Note included, also declares types named after it.
        for resource in ["Note"] + (record.resources ?? []).map(\.name) {
            taken.insert(resource)
            for suffix in [
                "Domain", "Page", "Routes", "Command", "Commands", "Created", "Updated", "Deleted", "List",
                "SyncService",
                "SyncServiceTests", "CommandsTests",
            ] {
                taken.insert(resource + suffix)
            }
            for prefix in ["Create", "Update", "Delete"] { taken.insert(prefix + resource) }
        }
        for path in record.files.keys {
            let file = (path as NSString).lastPathComponent
            if path.contains("/Designs/"), file.hasSuffix(".modelgen.yaml") {
                taken.insert(String(file.dropLast(".modelgen.yaml".count)))
            } else if path.contains("/Model/"), file.hasSuffix(".swift") {
                taken.insert(String(file.dropLast(".swift".count)))
            }
        }
        return taken
    }

    /// Whether boiler may rewrite `path`: it is recorded as boiler's, and is either gone (deleted
    /// to be restored) or exactly as boiler last wrote it.
    private func isMachineOwned(_ path: String, record: ProjectRecord) -> Bool {
        guard let recorded = record.files[path] else { return false }
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(path)) else {
            return !FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path)
        }
        return ProjectRecord.hash(String(decoding: data, as: UTF8.self)) == recorded
    }

    private func write(_ text: String, to path: String) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
