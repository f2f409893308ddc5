import Foundation

/// Adds a part to a project: checks that the project can take it and that its name is free,
/// then records it; ``ProjectAddition`` renders and writes it, the machine file that wires it in
/// included.
struct PartAdder {
    typealias Outcome = ProjectAddition.Outcome

    let folder: URL

    func add(_ kind: AddPart.Kind, named rawName: String, dryRun: Bool) throws(BoilerError) -> Outcome {
        let record = try ProjectAddition.record(in: folder)
        let part = try ProjectName(rawName).module
        let hint = try check(kind, part, record: record)
        return try ProjectAddition(folder: folder).add(
            record.adding(kind, named: part), to: record, hint: hint, dryRun: dryRun)
    }

    /// Refuses a kind the project cannot take, then files in the way, then a name the project
    /// uses already; returns what to do by hand after the add, if anything.
    private func check(_ kind: AddPart.Kind, _ part: String, record: ProjectRecord) throws(BoilerError) -> String? {
        if kind == .resource { throw Self.resourceNeedsFields }
        var hint: String?
        switch record.template {
        case .server:
            // A project made before the server template had the machine file does not call it.
            let wiring = ServerPartTemplates.path(module: record.module)
            if (kind == .route || kind == .service) && record.files[wiring] == nil {
                hint = ServerPartTemplates.wiringHint(module: record.module)
            }
        case .app, .cli, .library:
            let isApp = record.template == .app
            let has = { (module: String) in isApp || record.packages.map { $0.contains(module) } ?? true }
            switch kind {
            case .command:
                guard has("Commands") else { throw Self.needs("Commands", kind) }
            case .route:
                guard has("Router") else { throw Self.needs("Router", kind) }
                if !isApp { hint = "Call \(part)Routes.register(on:) where you build your RouteTable." }
            case .service, .model:
                guard isApp else {
                    throw .invalidOption(
                        "kind", value: kind.rawValue,
                        expected: "command or route: a \(kind.rawValue) needs a project made with --template app")
                }
            case .resource: break
            }
        }
        try checkInTheWay(kind, part, record: record)
        try checkUnused(kind, part, record: record)
        return hint
    }

    /// Refuses a part whose own files exist already (written by hand, or by adding the part
    /// before) as a conflict, before its name is checked: the renderer says which files the part
    /// is, rendered alone; the machine file that lists every part is not the part's own.
    private func checkInTheWay(_ kind: AddPart.Kind, _ part: String, record: ProjectRecord) throws(BoilerError) {
        var alone = record
        alone.parts = nil
        alone.resources = nil
        let machine: Set = [
            ServerPartTemplates.path(module: record.module), PartTemplates.partsPath(core: "\(record.module)Core"),
        ]
        let files = try ProjectRenderer.parts(alone.adding(kind, named: part), store: TemplateStore(project: folder))
        let conflicts = ScaffoldPlan(folder: folder, files: files.filter { !machine.contains($0.path) }).conflicts()
        if !conflicts.isEmpty { throw .conflicts(folder: folder.path, paths: conflicts) }
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
