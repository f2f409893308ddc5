import ArgumentParser
import Foundation
import ModelGen

/// `boiler generate models <design> --output <dir>`: ModelGen's front end.
struct Generate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate code from designs.", subcommands: [GenerateModels.self])
}

/// Machine files (`_Entity.swift`, rewritten only when they change) and human files
/// (`Entity.swift`, created once, never overwritten or deleted) from a model design.
struct GenerateModels: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "Generate Swift value models from a .xcdatamodel(d), YAML or JSON model design.",
        discussion: """
            Machine files (_Entity.swift) are rewritten only when their content changes; human files \
            (Entity.swift) are created once and never overwritten or deleted. Nothing is written when \
            the design has an error. The output folder's .modelgen-manifest.json records the machine \
            files ModelGen wrote: only those are replaced or pruned, and an orphan edited since is kept. \
            Exit codes: 64 usage, 73 a file ModelGen did not write or an edited orphan is in the way \
            (--force), 1 a design or write error.
            """
    )

    @Argument(help: "The design: a .xcdatamodeld or .xcdatamodel bundle, or a .yaml/.yml/.json file.")
    var design: String

    @Option(help: "The folder the Swift files go into.")
    var output: String

    @Option(help: "A folder of .mustache templates that replace the bundled ones of the same name.")
    var templatePath: String?

    @Option(name: .customLong("template-var"), help: "A template variable, key=value (repeatable).")
    var templateVariables: [String] = []

    @Option(help: "The access level of generated types.")
    var access: String = "public"

    @Option(name: .customLong("import"), help: "An extra import for machine files (repeatable).")
    var imports: [String] = []

    @Option(name: .customLong("conform"), help: "An extra protocol every generated type conforms to (repeatable).")
    var conformances: [String] = []

    @Flag(
        help: """
            Make every entity with a stored 'id' attribute a Storage QueryableRecord (its attributes \
            become key-path query fields); others are left out with a warning. An entity's own \
            boiler.queryable user info wins over this flag either way.
            """)
    var queryable = false

    @Flag(help: "Remove machine files whose entity is gone (never human files).")
    var prune = false

    @Flag(help: "Overwrite files ModelGen did not write, and prune orphans edited since it wrote them.")
    var force = false

    @Flag(help: "Do not create missing human files.")
    var noHuman = false

    @Flag(help: "Print what would change and write nothing.")
    var dryRun = false

    @Flag(help: "Print errors and warnings only.")
    var quiet = false

    func run() async throws {
        let console = Console(quiet: quiet)
        let report: GenerationReport
        do {
            let options = GenerationOptions(
                accessLevel: access, imports: imports, conformances: conformances,
                templateDirectory: templatePath.map { URL(fileURLWithPath: $0, isDirectory: true) },
                templateVariables: try GenerationOptions.templateVariables(from: templateVariables),
                createsHumanFiles: !noHuman, prunesOrphans: prune, isDryRun: dryRun, force: force,
                queryable: queryable)
            report = try ModelGenerator(options: options).generate(
                from: URL(fileURLWithPath: design), into: URL(fileURLWithPath: output, isDirectory: true))
        } catch {
            console.error(error.userMessage)
            switch error as? ModelGenError {
            case .invalidOption?: throw ExitCode(64)
            case .unownedFile?, .editedOrphans?: throw ExitCode(73)
            default: throw ExitCode(1)
            }
        }
        for warning in report.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
        // The migration plan between the design's versions comes first: it is what a reviewer reads.
        for line in report.plan { console.line(line) }
        let verb = dryRun ? "Would write" : "Wrote"
        for path in report.written { console.done("\(verb) \(path)") }
        for path in report.createdHumanFiles { console.done("\(dryRun ? "Would create" : "Created") \(path)") }
        for path in report.pruned { console.done("\(dryRun ? "Would remove" : "Removed") \(path)") }
        for path in report.orphans where !report.pruned.contains(path) {
            console.line("orphan \(path): its entity is gone; --prune removes it")
        }
        console.line(
            "\(report.changeCount) file(s) \(dryRun ? "would change" : "changed"), \(report.unchanged.count) unchanged")
    }
}
