import ArgumentParser
import Foundation

/// `boiler new <Name>`: plan a project, report every conflict, then write it all or nothing.
struct NewProject: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a project that builds and passes its tests on the first try.",
        discussion: """
            Files are rendered into a temporary folder and moved into place, so a failure leaves \
            nothing half-made. A folder that already holds anything (hidden files included) is \
            refused without --force, and even then existing files are kept as they are. Exit codes: \
            64 usage, 73 a folder that is not empty or files in the way, 1 failure.
            """
    )

    @Argument(help: "The project's name; 'my notes' and 'my-notes' become the module MyNotes.")
    var name: String

    @Option(help: "app, cli, library or server.")
    var template: String?

    @Option(help: "With --template server: sqlite (default) or postgres (DATABASE_URL, else SQLite).")
    var database: String?

    @Option(help: "Depend on these kit products (comma-separated) instead of the Boilerplate umbrella.")
    var packages: String?

    @Option(help: "The folder to create the project in; default ./<Name>.")
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Depend on the kit at this git URL (default: \(KitVersion.url)).",
            discussion: "Without --kit-url, --kit-version or --kit-path, a boiler built from a checkout of the kit "
                + "uses that checkout, and any other boiler the published URL; 'boiler --version' says which."))
    var kitURL: String?

    @Option(help: "The kit version to depend on (from:; default \(KitVersion.current)).")
    var kitVersion: String?

    @Option(help: "Depend on a local checkout of the kit instead of a URL (offline use).")
    var kitPath: String?

    @Flag(help: "Do not run 'git init'.")
    var noGit = false

    @Flag(help: "Print the plan and write nothing.")
    var dryRun = false

    @Flag(help: "Write into a folder that is not empty, keeping every file already there.")
    var force = false

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "A template value, key=value (repeatable): "
                + Scaffolder.settableValues.map(\.key).joined(separator: ", ") + ".",
            discussion: Scaffolder.settableValues.map { "\($0.key): \($0.value)" }.joined(separator: "; ")))
    var values: [String] = []

    @Flag(help: "Never ask questions; take the defaults.")
    var noInteractive = false

    @Flag(help: "Run 'swift build' and 'swift test' in the new project.")
    var verify = false

    @Flag(help: "Print errors only.")
    var quiet = false

    func validate() throws {
        if kitPath != nil && (kitURL != nil || kitVersion != nil) {
            throw ValidationError("--kit-path cannot be combined with --kit-url or --kit-version.")
        }
    }

    func run() async throws {
        let console = Console(quiet: quiet)
        try await reportingErrors(console) {
            let options = try makeOptions(console: console)
            let folder = URL(fileURLWithPath: output ?? options.name.module, isDirectory: true).standardizedFileURL
            // With the base of every file (.boiler/base/), which boiler update merges from.
            let plan = try ProjectBase.adding(to: Scaffolder(options: options).plan(in: folder))
            let entries = plan.existingEntries()
            if !entries.isEmpty && !force {
                throw BoilerError.folderNotEmpty(folder: folder.path, entries: entries)
            }
            let conflicts = plan.conflicts()
            if !conflicts.isEmpty && !force {
                throw BoilerError.conflicts(folder: folder.path, paths: conflicts)
            }
            if dryRun {
                console.line("Plan for \(folder.path) (dry run, nothing written):")
                for line in plan.listing(skipping: Set(conflicts)) { console.line("  \(line)") }
                return
            }
            let outcome = try PlanWriter().write(plan, force: force)
            console.done("Created \(options.template.rawValue) project \(options.name.module) in \(folder.path)")
            console.done("Wrote \(outcome.written.count) files")
            if !outcome.kept.isEmpty {
                console.done("Kept \(outcome.kept.count) existing files: \(outcome.kept.joined(separator: ", "))")
            }
            if !noGit && !FileManager.default.fileExists(atPath: folder.appendingPathComponent(".git").path) {
                try Shell.run(["git", "init", "-q"], in: folder)
                console.done("Initialised a git repository")
            }
            if verify {
                try Shell.run(["swift", "build"], in: folder)
                console.done("swift build")
                try Shell.run(["swift", "test"], in: folder)
                console.done("swift test")
            }
            let cd = "cd \(output ?? options.name.module)"
            console.next(options.template == .library ? [cd, "swift test"] : [cd, "swift run \(options.name.module)"])
        }
    }

    /// The kit the project depends on: `--kit-path`, else `--kit-url`/`--kit-version` (either
    /// one asks for a URL; the other part defaults to the published one), else `fallback`.
    static func kit(path: String?, url: String?, version: String?, default fallback: DefaultKit) -> KitSource {
        if let path { return .path(URL(fileURLWithPath: path).standardizedFileURL.path) }
        if url != nil || version != nil {
            return .url(url ?? KitVersion.url, version: version ?? KitVersion.current)
        }
        return fallback.source
    }

    func makeOptions(console: Console) throws(BoilerError) -> ProjectOptions {
        let projectName = try ProjectName(name)
        if projectName.module != name.trimmingWhitespace {
            console.line("Module name: \(projectName.module)")
        }
        var templateName = template
        if templateName == nil && !noInteractive && Console.isInteractive {
            templateName = Prompt.ask("Template (app, cli, library, server)", default: TemplateKind.app.rawValue)
        }
        guard let kind = TemplateKind(rawValue: templateName ?? TemplateKind.app.rawValue) else {
            throw .invalidOption("template", value: templateName ?? "", expected: "app, cli, library or server")
        }
        var databaseKind: DatabaseKind?
        if let database {
            guard let parsed = DatabaseKind(rawValue: database) else {
                throw .invalidOption("database", value: database, expected: "sqlite or postgres")
            }
            databaseKind = parsed
        }
        let packageList = packages.map {
            $0.split(separator: ",").map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }
        }
        let kit = Self.kit(path: kitPath, url: kitURL, version: kitVersion, default: DefaultKit.current)
        var templateValues: [String: String] = [:]
        for pair in values {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw .invalidOption("set", value: pair, expected: "key=value")
            }
            templateValues[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        return ProjectOptions(
            name: projectName, template: kind, packages: packageList, kit: kit, values: templateValues,
            database: databaseKind)
    }
}

/// Questions on a terminal.
enum Prompt {
    static func ask(_ question: String, default value: String) -> String {
        print("\(question) [\(value)]: ", terminator: "")
        let answer = readLine()?.trimmingWhitespace ?? ""
        return answer.isEmpty ? value : answer
    }
}
