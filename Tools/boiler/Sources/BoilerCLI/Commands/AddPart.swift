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
            merged three ways, as boiler update merges it, if it was edited by hand (lines both \
            changed are marked as conflicts and listed, and the command exits 1). Names and paths \
            in .boiler.json are checked first, and nothing is written outside the project. The \
            files, their bases in .boiler/base/ and the record are written all or nothing: an add \
            stopped at any point leaves the project as it was, or is finished by the next \
            'boiler add' or 'boiler update'. --dry-run prints the plan as 'boiler update --dry-run' \
            does.

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
            Generated/_Resources.swift. In an app project: \
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
            .boiler.json or base, 73 conflicts or a path outside the project, 75 an interrupted \
            change to finish with 'boiler add' or 'boiler update' (a dry run does not finish it), \
            1 conflicts in a merged machine file or a failure.
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
        let (kind, name, fields, synced, dryRun) = (self.kind, self.name, self.fields, self.synced, self.dryRun)
        var conflicts: [String] = []
        try await reportingErrors(console) {
            let folder = URL(fileURLWithPath: project, isDirectory: true).standardizedFileURL
            // Before the add, so that a copy the user meant to be used is named even if the add fails.
            for warning in TemplateStore.strayWarnings(in: folder) { console.warning(warning) }
            if kind != .resource {
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
            }
            // git merges an edited machine file as a child process: all of it runs on a thread of its own.
            let outcome = try await OffPool.run { () throws(BoilerError) -> ProjectAddition.Outcome in
                // A change killed past its commit point (an add's or an update's) is finished first.
                if !dryRun, try UpdateTransaction.finishPending(in: folder) {
                    console.done("Finished the change that was interrupted")
                }
                if kind == .resource {
                    return try ResourceAdder(folder: folder).add(name, fields: fields, synced: synced, dryRun: dryRun)
                }
                return try PartAdder(folder: folder).add(kind, named: name, dryRun: dryRun)
            }
            if dryRun {
                for line in outcome.plan.dryRunReport(for: folder) { console.line(line) }
            } else {
                for path in outcome.written { console.done("Wrote \(path)") }
            }
            if let hint = outcome.hint { console.line(hint) }
            conflicts = outcome.conflicts
        }
        if !conflicts.isEmpty && !dryRun {
            console.error(
                "\(conflicts.count) file(s) have conflicts, marked with <<<<<<< and >>>>>>>: "
                    + conflicts.joined(separator: ", ") + ". Resolve them, then commit.")
            throw ExitCode(1)
        }
    }
}
