import Foundation

/// Adds a part to a project: plans the new files, refuses to touch existing ones, rewrites the
/// wiring machine file only when nobody edited it, and records what it wrote.
struct PartAdder {
    struct Outcome {
        var written: [String]
        var hint: String?
    }

    let folder: URL

    func add(_ kind: AddPart.Kind, named rawName: String, dryRun: Bool) throws(BoilerError) -> Outcome {
        var record = try ProjectRecord.read(in: folder)
        // The record is a file anyone can edit: its names become paths and Swift source.
        try record.validate(path: folder.appendingPathComponent(ProjectRecord.fileName).path)
        let part = try ProjectName(rawName).module
        if record.template == .server { return try addToServer(kind, part: part, record: record, dryRun: dryRun) }
        let isApp = record.template == .app
        let core = record.template == .library ? record.module : "\(record.module)Core"
        let has = { (module: String) in isApp || record.packages.map { $0.contains(module) } ?? true }
        let importLine = record.packages == nil ? "Boilerplate" : Self.importFor(kind)
        let context = PartTemplates.Context(
            part: part, core: core, model: isApp ? "\(record.module)Model" : "ItemsModel", importLine: importLine)

        var templates: [TemplateFile]
        var hint: String?
        switch kind {
        case .resource: throw Self.resourceNeedsFields
        case .command:
            guard has("Commands") else { throw Self.needs("Commands", kind) }
            templates = PartTemplates.command(context)
        case .route:
            guard has("Router") else { throw Self.needs("Router", kind) }
            templates = PartTemplates.route(context)
            if !isApp { hint = "Call \(part)Routes.register(on:) where you build your RouteTable." }
        case .service, .model:
            guard isApp else {
                throw .invalidOption(
                    "kind", value: kind.rawValue,
                    expected: "command or route: a \(kind.rawValue) needs a project made with --template app")
            }
            templates = kind == .service ? PartTemplates.service(context) : PartTemplates.model(context)
        }

        // The project's own copies under .boiler/templates replace boiler's.
        let store = try TemplateStore(project: folder)
        let files = try store.render(templates, values: [:])
        try check(files, kind, part, record: record)
        var machine: PlannedFile?
        if isApp && (kind == .route || kind == .service) {
            var parts = record.parts ?? ProjectRecord.Parts()
            if kind == .route { parts.routes.append(part) } else { parts.services.append(part) }
            let wiring = PartTemplates.parts(
                core: core, model: context.model, routes: parts.routes, services: parts.services,
                synced: ProjectRenderer.syncedNames(record))
            machine = try store.render(wiring, values: [:])
            record.parts = parts
        }
        return try write(files, machine: machine, record: record, hint: hint, dryRun: dryRun)
    }

    /// A server project's part: commands run against its `NoteDomain`, routes are Hummingbird
    /// routes, services run in its service group; routes and services are wired through the
    /// server's own machine file, `Generated/_Parts.swift`.
    private func addToServer(
        _ kind: AddPart.Kind, part: String, record: ProjectRecord, dryRun: Bool
    ) throws(BoilerError) -> Outcome {
        var record = record
        let context = ServerPartTemplates.Context(part: part, module: record.module)
        let templates: [TemplateFile]
        switch kind {
        case .resource: throw Self.resourceNeedsFields
        case .command: templates = ServerPartTemplates.command(context)
        case .route: templates = ServerPartTemplates.route(context)
        case .service: templates = ServerPartTemplates.service(context)
        case .model:
            templates = PartTemplates.model(
                PartTemplates.Context(part: part, core: context.core, model: "", importLine: "Boilerplate"))
        }
        let store = try TemplateStore(project: folder)
        let files = try store.render(templates, values: [:])
        try check(files, kind, part, record: record)
        var machine: PlannedFile?
        var hint: String?
        if kind == .route || kind == .service {
            var parts = record.parts ?? ProjectRecord.Parts()
            if kind == .route { parts.routes.append(part) } else { parts.services.append(part) }
            let wiring = try store.render(
                ServerPartTemplates.parts(module: record.module, routes: parts.routes, services: parts.services),
                values: [:])
            // A project made before the server template had the machine file does not call it.
            if record.files[wiring.path] == nil {
                hint = ServerPartTemplates.wiringHint(module: record.module)
            }
            machine = wiring
            record.parts = parts
        }
        return try write(files, machine: machine, record: record, hint: hint, dryRun: dryRun)
    }

    /// Refuses a part whose type would have the name of a type the project uses (Swift's, the
    /// kit's, the template's, a resource's, a model's, an earlier part's), or a route whose path
    /// is served already: the project would not compile, or its router would refuse to start.
    /// Names are compared ignoring case, as file names are on a case-insensitive disk.
    private func checkUnused(_ kind: AddPart.Kind, _ part: String, record: ProjectRecord) throws(BoilerError) {
        let type = kind == .route ? part + "Routes" : kind == .service ? part + "Service" : part
        let module = record.module
        var taken: Set<String> = ResourceSpec.reservedTypes.union([module, module + "Core", module + "Error"])
        switch record.template {
        case .server:
            taken.formUnion(ResourceAdder(folder: folder).takenNames(record))
            taken.formUnion([module + "Parts"])
        case .app:
            taken.formUnion(ResourceAdder(folder: folder).takenNames(record))
            taken.formUnion(["Screen", "RemoteNote"])
        case .cli: taken.formUnion(["ItemsModel", module + "Tool"])
        case .library: break
        }
        // The template's files and earlier parts' are named after the type they declare (or one
        // they hold, as NoteCommands); a name too many only refuses a part the user can rename.
        for path in record.files.keys where path.hasPrefix("Sources/") && path.hasSuffix(".swift") {
            let file = path.split(separator: "/").last.map(String.init) ?? ""
            if file != "main.swift" { taken.insert(String(file.dropLast(".swift".count))) }
        }
        let lowered = type.lowercased()
        if let existing = taken.first(where: { $0.lowercased() == lowered }) {
            throw .invalidResource(
                part: "\(kind.rawValue) name", value: part,
                reason: "the project already has a type named \(existing), so \(type) would not compile")
        }
        guard kind == .route else { return }
        let path = PartTemplates.kebab(part)
        if let owner = servedPaths(record)[path] {
            throw .invalidResource(
                part: "route name", value: part,
                reason: "/\(path) is served already, by \(owner), and a router takes one handler per path")
        }
    }

    /// The first segment of every path the project's routes serve, with who serves it.
    private func servedPaths(_ record: ProjectRecord) -> [String: String] {
        var paths: [String: String] = [:]
        switch record.template {
        case .server:
            paths["health"] = "\(record.module)Server's health check"
            paths["notes"] = "NoteRoutes"
            for resource in record.resources ?? [] {
                paths[ResourceSpec.plural(of: PartTemplates.kebab(resource.name))] = "\(resource.name)Routes"
            }
        case .app: paths["notes"] = "NoteRoutes"
        case .cli, .library: break
        }
        for route in record.parts?.routes ?? [] { paths[PartTemplates.kebab(route)] = "\(route)Routes" }
        return paths
    }

    /// Refuses a part whose files are in the way, then one whose name the project uses already.
    private func check(
        _ files: [PlannedFile], _ kind: AddPart.Kind, _ part: String, record: ProjectRecord
    )
        throws(BoilerError)
    {
        let conflicts = ScaffoldPlan(folder: folder, files: files).conflicts()
        if !conflicts.isEmpty { throw .conflicts(folder: folder.path, paths: conflicts) }
        try checkUnused(kind, part, record: record)
    }

    /// Writes a part's files and its machine file, then the record; refuses an edited machine file
    /// before writing anything, and removes what it wrote when a write fails.
    private func write(
        _ files: [PlannedFile], machine: PlannedFile?, record: ProjectRecord, hint: String?, dryRun: Bool
    ) throws(BoilerError) -> Outcome {
        var record = record
        let plan = ScaffoldPlan(folder: folder, files: files)
        if let machine { try ensureUnedited(machine.path, record: record) }
        let written = plan.files.map(\.path) + (machine.map { [$0.path] } ?? [])
        for path in written + [ProjectRecord.fileName] { try ProjectPaths.checkInside(path, root: folder) }
        if dryRun { return Outcome(written: written, hint: hint) }

        _ = try PlanWriter().write(plan, force: false)
        do {
            if let machine { try write(machine.contents, to: machine.path) }
            for file in plan.files + (machine.map { [$0] } ?? []) {
                record.files[file.path] = ProjectRecord.hash(file.contents)
            }
            try write(record.json, to: ProjectRecord.fileName)
        } catch {
            for file in plan.files { try? FileManager.default.removeItem(at: folder.appendingPathComponent(file.path)) }
            throw .writeFailed(path: folder.path, reason: error.userMessage)
        }
        return Outcome(written: written, hint: hint)
    }

    /// Refuses to overwrite a machine file whose contents differ from what boiler last wrote.
    private func ensureUnedited(_ path: String, record: ProjectRecord) throws(BoilerError) {
        let url = folder.appendingPathComponent(path)
        guard let data = try? Data(contentsOf: url) else { return }
        let current = ProjectRecord.hash(String(decoding: data, as: UTF8.self))
        guard current == record.files[path] else {
            throw .writeFailed(
                path: path,
                reason: "it was edited by hand, and boiler add does not overwrite edited files "
                    + "(restore it, or register the part yourself)")
        }
    }

    private func write(_ text: String, to path: String) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: .atomic)
    }

    static func importFor(_ kind: AddPart.Kind) -> String {
        switch kind {
        case .command: "Commands"
        case .route: "Router"
        case .service, .model, .resource: "Boilerplate"
        }
    }

    /// `boiler add resource` goes through ResourceAdder, which takes the fields too.
    static let resourceNeedsFields = BoilerError.invalidOption(
        "kind", value: AddPart.Kind.resource.rawValue, expected: "a resource's fields (use ResourceAdder)")

    static func needs(_ module: String, _ kind: AddPart.Kind) -> BoilerError {
        .invalidOption(
            "kind", value: kind.rawValue, expected: "a project that depends on \(module) to add a \(kind.rawValue)")
    }
}
