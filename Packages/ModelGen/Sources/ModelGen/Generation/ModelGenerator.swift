import Foundation

/// Generates Swift value models from a model design.
///
/// ```swift
/// let generator = ModelGenerator(options: GenerationOptions(prunesOrphans: true))
/// let report = try generator.generate(from: designURL, into: outputFolder)
/// print(report.written, report.createdHumanFiles, report.warnings)
/// ```
///
/// For each entity it renders a machine file, `_Entity.swift`, written only when its content
/// changes, and a human file, `Entity.swift`, created when missing and never overwritten or
/// deleted. The design is read, checked and rendered completely before the first file is
/// written, so a bad design writes nothing.
public struct ModelGenerator: Sendable {
    /// How the generator renders and writes.
    public var options: GenerationOptions

    /// Creates a generator.
    public init(options: GenerationOptions = GenerationOptions()) {
        self.options = options
    }

    /// Reads, renders and writes the design at `design` into `output`.
    /// - Parameters:
    ///   - design: An `.xcdatamodeld`, `.xcdatamodel`, `contents`, `.yaml` or `.json` design.
    ///   - output: The folder for machine files (created if missing); human files go there too
    ///     unless ``GenerationOptions/humanDirectory`` says otherwise.
    /// - Returns: What was written, kept, found orphaned and pruned, with warnings.
    /// - Throws: ``ModelGenError``; when it throws before writing began, nothing was written.
    @discardableResult
    public func generate(from design: URL, into output: URL) throws -> GenerationReport {
        try options.validate()
        // A rerun whose inputs and outputs are all as the last run left them writes nothing:
        // say so from the manifest's record instead of reading and rendering the design again.
        let fingerprint = inputFingerprint(design: design)
        if let fingerprint, let unchanged = unchangedReport(design: design, into: output, fingerprint: fingerprint) {
            return unchanged
        }
        let history = try DesignHistory.read(from: design)
        let rendered = try renderFiles(history, designFile: design.lastPathComponent)
        let record = fingerprint.map { fingerprint in
            GenerationInputs(
                fingerprint: fingerprint,
                machineFiles: rendered.files.filter { $0.kind == .machine }.map(\.name).sorted(),
                humanFiles: rendered.files.filter { $0.kind == .human }.map(\.name).sorted(),
                warnings: rendered.warnings, plan: rendered.plan, versions: history.versions.count)
        }
        var report = try write(
            rendered.files, into: output, designs: [design.lastPathComponent],
            inputs: record.map { (design: design.lastPathComponent, record: $0) })
        report.warnings =
            rendered.warnings + Self.handOverWarnings(report.keptHumanFiles, versions: history.versions.count)
        report.plan = rendered.plan
        return report
    }

    /// Warnings for kept human files that still declare their own `version` and `migrations`
    /// while the design has several versions: the generated steps are not used until they
    /// say `designVersion` and `designMigrations` (a human file is never rewritten).
    static func handOverWarnings(_ humanFiles: [String], versions: Int) -> [String] {
        guard versions > 1 else { return [] }
        return humanFiles.sorted().compactMap { path in
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                text.contains(": Versioned"), !text.contains("designMigrations")
            else { return nil }
            return "\((path as NSString).lastPathComponent) declares its own version and migrations, so the "
                + "migrations generated from the design's \(versions) versions are not used: make it say "
                + "`static let version = designVersion` and `static let migrations: [Migration] = designMigrations` "
                + "(see \"Evolving a model\")."
        }
    }

    /// Renders every file of `design` in memory.
    /// - Parameters:
    ///   - design: The design, as ``ModelDesign/read(from:)`` returns it or built in code.
    ///   - designFile: The name generated files credit as their source, such as `Model.xcdatamodeld`.
    /// - Returns: Machine files then human files, each sorted by name.
    public func render(_ design: ModelDesign, designFile: String) throws -> [GeneratedFile] {
        try renderFiles(DesignHistory(design), designFile: designFile).files
    }

    /// Renders every file of the current version of `history`, with the migrations from its
    /// earlier versions.
    /// - Parameters:
    ///   - history: The design's versions, as ``DesignHistory/read(from:)`` returns them or built in code.
    ///   - designFile: The name generated files credit as their source, such as `Model.xcdatamodeld`.
    /// - Returns: Machine files then human files, each sorted by name.
    public func render(_ history: DesignHistory, designFile: String) throws -> [GeneratedFile] {
        try renderFiles(history, designFile: designFile).files
    }

    /// The changes between the versions of `history`, and the steps and hooks they need.
    /// - Throws: ``ModelGenError`` when a version cannot be resolved.
    public func plan(_ history: DesignHistory, designFile: String) throws -> MigrationPlan {
        try planned(history, designFile: designFile).plan
    }

    /// The current version resolved, and the plan over every version.
    private func planned(
        _ history: DesignHistory, designFile: String
    ) throws -> (model: ResolvedModel, plan: MigrationPlan, entities: [String: MigrationPlanner.EntityMigrations]) {
        let model = try ModelResolver.resolve(history.current.design, file: designFile)
        let names = history.versions.map(\.name)
        var oldest: Int?
        if let stated = history.oldestStoredVersion {
            guard let position = names.firstIndex(of: stated) else {
                throw ModelGenError.malformedDesign(
                    file: designFile, path: "oldestStoredVersion",
                    reason: "'\(SwiftNames.commentText(stated))' is not one of the design's versions")
            }
            oldest = position
        }
        guard !history.earlier.isEmpty else {
            return (
                model, MigrationPlan(versions: names, steps: [], oldestStoredVersion: oldest.map { $0 + 1 }), [:]
            )
        }
        var models = try history.earlier.map { version in
            try ModelResolver.resolve(version.design, file: "\(designFile) (version '\(version.name)')")
        }
        models.append(model)
        let planner = MigrationPlanner(models: models, names: names, oldestStored: oldest)
        let (plan, entities) = planner.plan()
        return (model, plan, entities)
    }

    /// The rendered files, the resolver's warnings and the plan's lines.
    func renderFiles(_ design: ModelDesign, designFile: String) throws -> (files: [GeneratedFile], warnings: [String]) {
        let rendered = try renderFiles(DesignHistory(design), designFile: designFile)
        return (rendered.files, rendered.warnings)
    }

    /// The rendered files, the resolver's warnings and the plan's lines.
    func renderFiles(
        _ history: DesignHistory, designFile: String
    ) throws -> (files: [GeneratedFile], warnings: [String], plan: [String]) {
        try options.validate()
        let (model, plan, migrations) = try planned(history, designFile: designFile)
        let templates = try TemplateSet.load(overrides: options.templateDirectory)
        var context = RenderContext(model: model, options: options, designFileName: designFile)
        context.designVersion = plan.currentVersion
        context.oldestStoredVersion = plan.oldestStoredVersion
        context.versionName = history.current.name
        var machine: [GeneratedFile] = []
        var human: [GeneratedFile] = []
        var names: Set<String> = []
        var warnings = model.warnings
        for entity in model.entities {
            let queryable = try QueryableConformance.fields(
                of: entity, options: options, file: designFile, warnings: &warnings)
            let values = context.context(for: entity, queryableFields: queryable, migrations: migrations[entity.name])
            let machineName = "_\(entity.fileStem).swift"
            let humanName = "\(entity.fileStem).swift"
            for name in [machineName, humanName] where !names.insert(name.lowercased()).inserted {
                throw ModelGenError.duplicateEntity(file: designFile, entity: entity.name)
            }
            machine.append(
                GeneratedFile(
                    name: machineName, entity: entity.name, kind: .machine,
                    contents: Self.tidy(try templates.render("machine", values))))
            if options.createsHumanFiles {
                human.append(
                    GeneratedFile(
                        name: humanName, entity: entity.name, kind: .human,
                        contents: Self.tidy(try templates.render("human", values))))
            }
        }
        if let single = options.singleFileName {
            let combined = machine.map(\.contents).joined(separator: "\n")
            machine = [GeneratedFile(name: single, entity: "", kind: .machine, contents: combined)]
        }
        var files = machine + human
        for index in files.indices { files[index].designFile = designFile }
        return (files, warnings, plan.lines)
    }

    /// Trailing spaces removed, runs of blank lines collapsed, exactly one final newline: so
    /// templates can be written for readability without making the output untidy.
    static func tidy(_ text: String) -> String {
        var lines: [Substring] = []
        var blank = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var trimmed = line
            while trimmed.last == " " || trimmed.last == "\t" { trimmed = trimmed.dropLast() }
            if trimmed.isEmpty {
                if blank || lines.isEmpty { continue }
                blank = true
            } else {
                blank = false
            }
            lines.append(trimmed)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n") + "\n"
    }
}
