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
        // A server's parts are resources (entity, commands, routes, tests), which `boiler add`
        // cannot write yet; the app and library parts would not compile there.
        if record.template == .server {
            throw .invalidOption(
                "kind", value: kind.rawValue,
                expected: "a project made with --template app, cli or library: a server project takes resources "
                    + "('boiler add resource Tag name:String')")
        }
        let isApp = record.template == .app
        let core = record.template == .library ? record.module : "\(record.module)Core"
        let has = { (module: String) in isApp || record.packages.map { $0.contains(module) } ?? true }
        let importLine = record.packages == nil ? "Boilerplate" : Self.importFor(kind)
        let context = PartTemplates.Context(
            part: part, core: core, model: isApp ? "\(record.module)Model" : "ItemsModel", importLine: importLine)

        var files: [PlannedFile]
        var hint: String?
        switch kind {
        case .resource:
            // `boiler add resource` goes through ResourceAdder, which takes the fields too.
            throw .invalidOption("kind", value: kind.rawValue, expected: "a resource's fields (use ResourceAdder)")
        case .command:
            guard has("Commands") else { throw Self.needs("Commands", kind) }
            files = PartTemplates.command(context)
        case .route:
            guard has("Router") else { throw Self.needs("Router", kind) }
            files = PartTemplates.route(context)
            if !isApp { hint = "Call \(part)Routes.register(on:) where you build your RouteTable." }
        case .service, .model:
            guard isApp else {
                throw .invalidOption(
                    "kind", value: kind.rawValue,
                    expected: "command or route: a \(kind.rawValue) needs a project made with --template app")
            }
            files = kind == .service ? PartTemplates.service(context) : PartTemplates.model(context)
        }

        let plan = ScaffoldPlan(folder: folder, files: files)
        let conflicts = plan.conflicts()
        if !conflicts.isEmpty { throw .conflicts(folder: folder.path, paths: conflicts) }

        var machine: PlannedFile?
        if isApp && (kind == .route || kind == .service) {
            var parts = record.parts ?? ProjectRecord.Parts()
            if kind == .route { parts.routes.append(part) } else { parts.services.append(part) }
            let wiring = PartTemplates.parts(
                core: core, model: context.model, routes: parts.routes, services: parts.services)
            try ensureUnedited(wiring.path, record: record)
            machine = wiring
            record.parts = parts
        }
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

    static func needs(_ module: String, _ kind: AddPart.Kind) -> BoilerError {
        .invalidOption(
            "kind", value: kind.rawValue, expected: "a project that depends on \(module) to add a \(kind.rawValue)")
    }
}
