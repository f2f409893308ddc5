import ArgumentParser
import Foundation

/// `boiler add command|route|service|model <Name>` and `boiler add resource <Name> <field:Type>...`:
/// new files for a project made by `boiler new`.
struct AddPart: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a command, route, service, model or resource to a project made by 'boiler new'.",
        discussion: """
            New files are written only where nothing exists yet. Routes and services are wired \
            into the app or server through the machine file Generated/_Parts.swift, which is \
            rewritten only if it has not been edited by hand. Names and paths in .boiler.json are \
            checked first, and nothing is written outside the project.

            In a server project a command runs against the NoteDomain (and comes with a test over \
            a real SQLite file), a route is a Hummingbird route with a test through the router, a \
            service runs beside the HTTP server in its service group, and a model is a design file.

            'boiler add resource Tag name:String count:Int note:String?' adds a resource with typed \
            fields (String, Int, Double, Bool, Date, UUID; '?' makes one optional; quote it for \
            the shell). '=value' gives a non-optional String, Int, Double or Bool field a default \
            that a create may leave out: 'done:Bool=false', 'rank:Int=3', 'label:String=To do' \
            (plain printable text: no quotes, backslashes, backticks or '{{'). In a server project: the entity (a queryable record in its own table), \
            create/update/delete commands with events, REST routes at /tags (list with paging and \
            ?q= on the first String field, get, create, update, delete; 404/422 as problem \
            details) and their tests, wired in through the machine file \
            Generated/_Resources.swift. If that file was edited by hand, it is left alone, the \
            other files are written, and the lines to add by hand are printed. In an app project: \
            the entity, a TagList model, create/update/delete commands and their tests.

            --synced (app projects): the records are kept in step with the same resource of a \
            server project. They live in a SyncedRecordStore (tags.sqlite in the app's data \
            folder), the entity carries the server's revision, the commands write through the \
            store (so they work offline), and a TagSyncService, registered through \
            Generated/_Parts.swift, runs a SyncEngine against the server's /sync/tags while it \
            is started. The server's base URL is read from the environment variable \
            <MODULE>_SYNC_URL (NOTES_SYNC_URL for a project named Notes); without a usable one \
            sync is off and the service says why. Package.swift gains the BoilerplateSync \
            product. Add the same resource to the server project without --synced.

            Exit codes: 64 usage or a bad resource name or field, 65 an untrustworthy \
            .boiler.json, 73 conflicts or a path outside the project, 1 failure.
            """
    )

    /// The kinds of part.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case command, route, service, model, resource
    }

    @Argument(help: "command, route, service, model or resource.")
    var kind: Kind

    @Argument(help: "The part's name in PascalCase, such as ArchiveNote; a resource's in the singular, such as Tag.")
    var name: String

    @Argument(help: "A resource's fields, each name:Type or name:Type?, such as name:String count:Int.")
    var fields: [String] = []

    @Option(help: "The project folder; the current folder by default.")
    var project: String = "."

    @Flag(help: "An app project's resource: keep its records in step with the same resource of a server project.")
    var synced = false

    @Flag(help: "Print what would be written and write nothing.")
    var dryRun = false

    @Flag(help: "Print errors only.")
    var quiet = false

    func run() async throws {
        let console = Console(quiet: quiet)
        try await reportingErrors(console) {
            let folder = URL(fileURLWithPath: project, isDirectory: true).standardizedFileURL
            // Before the add, so that a copy the user meant to be used is named even if the add fails.
            for warning in TemplateStore.strayWarnings(in: folder) { console.warning(warning) }
            let written: [String]
            var notes: [String] = []
            if kind == .resource {
                let outcome = try ResourceAdder(folder: folder).add(
                    name, fields: fields, synced: synced, dryRun: dryRun)
                written = outcome.written
                if let step = outcome.manualStep {
                    // A step left to the user is printed even with --quiet (on standard error then).
                    if quiet { FileHandle.standardError.write(Data((step + "\n").utf8)) } else { notes.append(step) }
                }
                if let hint = outcome.hint { notes.append(hint) }
            } else {
                guard !synced else {
                    throw BoilerError.invalidOption(
                        "synced", value: kind.rawValue,
                        expected: "a resource: only 'boiler add resource' takes --synced")
                }
                guard fields.isEmpty else {
                    throw BoilerError.invalidOption(
                        "fields", value: fields.joined(separator: " "),
                        expected: "no fields after the name of a \(kind.rawValue): only a resource takes fields")
                }
                let outcome = try PartAdder(folder: folder).add(kind, named: name, dryRun: dryRun)
                written = outcome.written
                if let hint = outcome.hint { notes.append(hint) }
            }
            if !dryRun {
                // What boiler wrote, kept for boiler update (.boiler/base/), and a command's or
                // model's name, so that update can render it again.
                try ProjectBase.keep(afterAdding: kind, named: name, written: written, in: folder)
            }
            if dryRun {
                console.line("Plan for \(folder.path) (dry run, nothing written):")
                for path in written { console.line("  write \(path)") }
                for note in notes { console.line(note) }
                return
            }
            for path in written { console.done("Wrote \(path)") }
            for note in notes { console.line(note) }
        }
    }
}
