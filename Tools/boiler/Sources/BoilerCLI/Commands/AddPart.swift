import ArgumentParser
import Foundation

/// `boiler add command|route|service|model <Name>`: new files for a project made by `boiler new`.
struct AddPart: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a command, route, service or model to a project made by 'boiler new'.",
        discussion: """
            New files are written only where nothing exists yet. Routes and services are wired \
            into the app through the machine file Generated/_Parts.swift, which is rewritten only \
            if it has not been edited by hand. Names and paths in .boiler.json are checked first, \
            and nothing is written outside the project. Exit codes: 64 usage, 65 an untrustworthy \
            .boiler.json, 73 conflicts or a path outside the project, 1 failure.
            """
    )

    /// The kinds of part.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case command, route, service, model
    }

    @Argument(help: "command, route, service or model.")
    var kind: Kind

    @Argument(help: "The part's name in PascalCase, such as ArchiveNote.")
    var name: String

    @Option(help: "The project folder; the current folder by default.")
    var project: String = "."

    @Flag(help: "Print what would be written and write nothing.")
    var dryRun = false

    @Flag(help: "Print errors only.")
    var quiet = false

    func run() async throws {
        let console = Console(quiet: quiet)
        try await reportingErrors(console) {
            let folder = URL(fileURLWithPath: project, isDirectory: true).standardizedFileURL
            let outcome = try PartAdder(folder: folder).add(kind, named: name, dryRun: dryRun)
            if dryRun {
                console.line("Plan for \(folder.path) (dry run, nothing written):")
                for path in outcome.written { console.line("  write \(path)") }
                return
            }
            for path in outcome.written { console.done("Wrote \(path)") }
            if let hint = outcome.hint { console.line(hint) }
        }
    }
}
