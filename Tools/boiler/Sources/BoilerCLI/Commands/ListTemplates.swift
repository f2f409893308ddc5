import ArgumentParser
import Foundation

/// `boiler templates`: what `boiler new --template` accepts; with `--files`, every template
/// file by template and part; with `--eject NAME`, a copy of one's files in the project to edit.
struct ListTemplates: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates", abstract: "List the project templates, or copy one's files into a project to edit.",
        discussion: """
            Every file boiler writes is rendered from a Mustache template file in its resource \
            bundle, one folder per template (app, cli, library, server, shared, samples) and part \
            (command, route, service, model, server-command, server-route, server-service, \
            resource, app-resource). A project may replace any of them with its own copy at the \
            same path under .boiler/templates/; 'boiler add' (resources too) and 'boiler update' \
            render from it, and a file there that matches no template file is named by a warning. \
            '--eject NAME' copies NAME's files there to start from; it never overwrites a copy \
            that is already there.

            Exit codes: 64 usage, 65 an unusable template file, 73 copies already there or a \
            path outside the project, 1 failure.
            """)

    @Flag(help: "Print JSON: an array of {name, summary}.")
    var json = false

    @Flag(help: "List the template files of every template and part.")
    var files = false

    @Option(help: "Copy the template files of this template or part to the project's .boiler/templates.")
    var eject: String?

    @Option(help: "The project folder for --eject; the current folder by default.")
    var project: String = "."

    @Flag(help: "With --eject: print what would be copied and copy nothing.")
    var dryRun = false

    func run() async throws {
        let console = Console(quiet: false)
        if let eject {
            try await reportingErrors(console) {
                let folder = URL(fileURLWithPath: project, isDirectory: true).standardizedFileURL
                let written = try TemplateEjector(folder: folder).eject(eject, dryRun: dryRun)
                if dryRun {
                    console.line("Plan for \(folder.path) (dry run, nothing written):")
                    for path in written { console.line("  write \(path)") }
                } else {
                    for path in written { console.done("Wrote \(path)") }
                }
            }
            return
        }
        if files {
            try await reportingErrors(console) {
                let store = try TemplateStore()
                for name in store.names {
                    for file in store.files(of: name) { print(file) }
                }
            }
            return
        }
        if json {
            let entries = TemplateKind.allCases.map { ["name": $0.rawValue, "summary": $0.summary] }
            let data = try JSONSerialization.data(withJSONObject: entries, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            for kind in TemplateKind.allCases {
                print("\(kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(kind.summary)")
            }
        }
    }
}
