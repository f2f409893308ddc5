import Foundation

/// The one project renderer: renders, with this boiler's templates, every file a record says
/// boiler writes — the project `boiler new` makes from the record's options, then every part and
/// resource the record lists, with the machine files that wire them in listing them all.
/// `boiler update` merges its rendering in ("theirs"); `boiler add` renders the record it grew
/// and writes what changed.
///
/// It goes through the same seams as `new` (``Scaffolder`` and the part and resource templates),
/// with the project's own template copies under `.boiler/templates/`, so the files are exactly
/// what a new project of the same record would have.
enum ProjectRenderer {
    /// The rendered files by path (`.boiler.json` itself excluded), for the project in `folder`.
    /// - Throws: ``BoilerError/invalidRecord(path:field:reason:)`` when the record's options are
    ///   ones `boiler new` would refuse.
    static func render(_ record: ProjectRecord, in folder: URL) throws(BoilerError) -> [String: PlannedFile] {
        let recordPath = folder.appendingPathComponent(ProjectRecord.fileName).path
        let name: ProjectName
        do {
            name = try ProjectName(record.name, maximumLength: 255)
        } catch {
            throw .invalidRecord(path: recordPath, field: "name", reason: "cannot be rendered again: \(error.message)")
        }
        guard name.module == record.module else {
            throw .invalidRecord(
                path: recordPath, field: "module",
                reason: "is \(BoilerError.shown(record.module)), but the name \(BoilerError.shown(record.name)) "
                    + "gives \(name.module)")
        }
        var options = ProjectOptions(
            name: name, template: record.template, packages: record.packages, kit: record.kit, values: record.values,
            database: record.database)
        options.synced = !syncedNames(record).isEmpty
        let scaffold: ScaffoldPlan
        do {
            scaffold = try Scaffolder(options: options).plan(in: folder, overrides: folder)
        } catch {
            // A project's template copy that cannot be used (or that is reached through a link
            // out of the project) is its own error, not the record's.
            switch error {
            case .invalidTemplate, .outsideProject: throw error
            default: break
            }
            throw .invalidRecord(
                path: recordPath, field: "(options)", reason: "hold options boiler new refuses: \(error.message)")
        }
        var files: [String: PlannedFile] = [:]
        // Later files replace earlier ones at the same path: a machine file listing every part
        // replaces the template's empty one.
        let store = try TemplateStore(project: folder)
        for file in try scaffold.files + parts(record, store: store) + resources(record, store: store)
        where file.path != ProjectRecord.fileName {
            files[file.path] = file
        }
        return files
    }

    /// The files of every recorded command, route, service and model, and the machine file that
    /// wires in routes and services, from `store`: the one place that says which files a part is.
    static func parts(_ record: ProjectRecord, store: TemplateStore) throws(BoilerError) -> [PlannedFile] {
        guard let parts = record.parts else { return [] }
        let module = record.module
        var files: [TemplateFile] = []
        if record.template == .server {
            let context = { (part: String) in ServerPartTemplates.Context(part: part, module: module) }
            for command in parts.commands ?? [] { files += ServerPartTemplates.command(context(command)) }
            for route in parts.routes { files += ServerPartTemplates.route(context(route)) }
            for service in parts.services { files += ServerPartTemplates.service(context(service)) }
            for model in parts.models ?? [] {
                files += PartTemplates.model(
                    PartTemplates.Context(part: model, core: module + "Core", model: "", importLine: "Boilerplate"))
            }
            if !parts.routes.isEmpty || !parts.services.isEmpty {
                files.append(ServerPartTemplates.parts(module: module, routes: parts.routes, services: parts.services))
            }
            return try store.render(files, values: [:])
        }
        let isApp = record.template == .app
        let core = record.template == .library ? module : "\(module)Core"
        let model = isApp ? "\(module)Model" : "ItemsModel"
        func context(_ part: String, _ kind: AddPart.Kind) -> PartTemplates.Context {
            PartTemplates.Context(
                part: part, core: core, model: model,
                importLine: record.packages == nil ? "Boilerplate" : PartAdder.importFor(kind))
        }
        for command in parts.commands ?? [] { files += PartTemplates.command(context(command, .command)) }
        for route in parts.routes { files += PartTemplates.route(context(route, .route)) }
        for service in parts.services { files += PartTemplates.service(context(service, .service)) }
        for model in parts.models ?? [] { files += PartTemplates.model(context(model, .model)) }
        if isApp && (!parts.routes.isEmpty || !parts.services.isEmpty) {
            files.append(
                PartTemplates.parts(
                    core: core, model: model, routes: parts.routes, services: parts.services,
                    synced: syncedNames(record)))
        }
        return try store.render(files, values: [:])
    }

    /// The files of every recorded resource, and the machine files that wire them in (a server's
    /// `_Resources.swift`; an app's `_Parts.swift` for its synced resources).
    static func resources(_ record: ProjectRecord, store: TemplateStore) throws(BoilerError) -> [PlannedFile] {
        guard let resources = record.resources, !resources.isEmpty else { return [] }
        var files: [TemplateFile] = []
        for spec in resources {
            let names = ResourceTemplates.Names(spec: spec, module: record.module)
            files +=
                record.template == .server
                ? ResourceTemplates.server(names) : ResourceTemplates.app(spec: spec, module: record.module)
        }
        if record.template == .server {
            files.append(ResourceTemplates.serverWiring(module: record.module, resources: resources))
        } else if !syncedNames(record).isEmpty {
            // An app's synced resources register their services in the machine file of its parts.
            files.append(
                PartTemplates.parts(
                    core: "\(record.module)Core", model: "\(record.module)Model", routes: record.parts?.routes ?? [],
                    services: record.parts?.services ?? [], synced: syncedNames(record)))
        }
        return try store.render(files, values: [:])
    }

    /// The app's synced resources, in the order they were added.
    static func syncedNames(_ record: ProjectRecord) -> [String] {
        guard record.template == .app else { return [] }
        return (record.resources ?? []).filter(\.isSynced).map(\.name)
    }
}
