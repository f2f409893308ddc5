import Foundation

/// Adds a resource to a project: checks the name and the fields, then records the resource;
/// ``ProjectAddition`` renders and writes it, with the machine files that wire it in (a server's
/// `Generated/_Resources.swift`; for a synced resource, an app's `Package.swift` and
/// `Generated/_Parts.swift`).
struct ResourceAdder {
    typealias Outcome = ProjectAddition.Outcome

    /// The project folder.
    let folder: URL

    /// Adds the resource `name` with `fields` (`name:Type` or `name:Type?` each).
    /// - Throws: ``BoilerError/invalidResource(part:value:reason:)`` for a bad name or field (64);
    ///   ``BoilerError/invalidRecord(path:field:reason:)`` for an untrustworthy `.boiler.json` (65);
    ///   ``BoilerError/conflicts(folder:paths:)`` when a file exists, ``BoilerError/outsideProject(path:reason:)``
    ///   for a path that would leave the project (73). Nothing is written when it throws.
    /// - Parameter synced: `--synced`: keep the records in step with the same resource of a server
    ///   project (app projects only; ``BoilerError/invalidOption(_:value:expected:)`` elsewhere).
    func add(
        _ name: String, fields: [String], synced: Bool = false, dryRun: Bool
    ) throws(BoilerError) -> Outcome {
        let record = try ProjectAddition.record(in: folder)
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
        let hint =
            record.template == .server
            ? nil : synced ? ResourceTemplates.syncedHint(names) : ResourceTemplates.appHint(names)
        return try ProjectAddition(folder: folder).add(record.adding(spec), to: record, hint: hint, dryRun: dryRun)
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
}
