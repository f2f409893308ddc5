import ArgumentParser
import Foundation

/// `boiler update [--dry-run] [--force] [--adopt]`: merges this boiler's templates into a project
/// made by an earlier one, keeping every change its owner made.
struct Update: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bring a project made by 'boiler new' up to this boiler's templates, keeping your changes.",
        discussion: """
            For every file boiler wrote (by new, add or an earlier update): a file you did not \
            change is replaced by the new rendering; a file you changed whose rendering did not \
            change is left alone; a file both changed is merged three ways (what boiler wrote \
            then, kept in .boiler/base/; yours; the new rendering) with git merge-file, or a \
            built-in diff3 where git is not installed. A conflict is written with git's markers \
            and listed, and the command exits 1. A new template file is added (a file of yours \
            already there is a conflict); a file the templates no longer have is removed if you \
            never changed it, else listed and kept. A file you deleted stays deleted.

            Writing is all or nothing: an update stopped at any point leaves the project as it \
            was, or is finished by the next 'boiler update'. In a git repository, uncommitted \
            changes stop the update (--force goes ahead), so that it can be reviewed as one diff; \
            outside one, every file it changes is first copied to .boiler/backup/<time>/.

            A project made before boiler kept .boiler/base/ needs 'boiler update --adopt' once.

            Exit codes: 1 conflicts (written, with markers) or a failure, 64 usage or a project \
            to adopt first, 65 an untrustworthy .boiler.json or base or a file that cannot be \
            merged, 73 uncommitted changes or a path outside the project, 75 an interrupted \
            update (run boiler update to finish it).
            """
    )

    @Option(help: "The project folder; the current folder by default.")
    var project: String = "."

    @Flag(help: "Print what would happen to each file and write nothing.")
    var dryRun = false

    @Flag(help: "Update even with uncommitted changes in the git repository.")
    var force = false

    @Flag(help: "Give a project made before boiler kept a base (.boiler/base/) one, and write nothing else.")
    var adopt = false

    @Flag(help: "Print errors and conflicts only.")
    var quiet = false

    func run() async throws {
        let console = Console(quiet: quiet)
        let folder = URL(fileURLWithPath: project, isDirectory: true).standardizedFileURL
        let (dryRun, force, adopt) = (self.dryRun, self.force, self.adopt)
        var conflicts: [String] = []
        try await reportingErrors(console) {
            // git runs as child processes: all of it runs on a thread of its own.
            conflicts = try await OffPool.run { () throws(BoilerError) -> [String] in
                try Self.update(folder, dryRun: dryRun, force: force, adopt: adopt, console: console)
            }
        }
        if !conflicts.isEmpty {
            console.error(
                "\(conflicts.count) file(s) have conflicts, marked with <<<<<<< and >>>>>>>: "
                    + conflicts.joined(separator: ", ") + ". Resolve them, then commit.")
            throw ExitCode(1)
        }
    }

    /// The whole update, on the calling thread; returns the conflicted files.
    static func update(
        _ folder: URL, dryRun: Bool, force: Bool, adopt: Bool, console: Console
    ) throws(BoilerError)
        -> [String]
    {
        if dryRun {
            if FileManager.default.fileExists(atPath: UpdateTransaction.journal(in: folder).path) {
                throw .updateInterrupted(folder: folder.path)
            }
        } else if try UpdateTransaction.finishPending(in: folder) {
            console.done("Finished the update that was interrupted")
        }
        let recordPath = folder.appendingPathComponent(ProjectRecord.fileName).path
        let record = try ProjectRecord.read(in: folder)
        try record.validate(path: recordPath)
        if adopt {
            if dryRun {
                throw .invalidOption("adopt", value: "--dry-run", expected: "--adopt alone: it writes only bases")
            }
            let outcome = try Adoption(folder: folder).adopt(record)
            console.done("Adopted: \(outcome.fromFile.count + outcome.fromRendering.count) files have a base now")
            if !outcome.fromRendering.isEmpty {
                console.line("  from this boiler's rendering (unchanged since): \(outcome.fromRendering.count)")
            }
            if !outcome.foundParts.isEmpty {
                console.line("  parts found among the files: \(outcome.foundParts.joined(separator: ", "))")
            }
            if !outcome.released.isEmpty {
                console.line(
                    "Edited since boiler wrote them, with no base to merge from (no longer boiler's; the next "
                        + "update puts the template's version beside yours as a conflict):")
                for path in outcome.released { console.line("  \(path)") }
            }
            console.next(["boiler update --dry-run", "boiler update"])
            return []
        }
        guard record.templateVersion != nil else { throw .needsAdoption(folder: folder.path) }

        for warning in TemplateStore.strayWarnings(in: folder) { console.warning(warning) }
        let engine = MergeEngine.preferred()
        var plan = try UpdatePlanner(folder: folder, engine: engine).plan(record)
        if dryRun {
            for line in plan.dryRunReport(for: folder) { console.line(line) }
            return []
        }
        if plan.changes.isEmpty {
            console.done("Already up to date with boiler \(ProjectBase.templateVersion)'s templates")
            return []
        }
        let inGit = try Self.checkGit(folder, force: force)
        if !inGit {
            try Self.addBackups(to: &plan, in: folder, console: console)
        }
        try UpdateTransaction.commit(plan.changes, in: folder)
        for line in plan.listing() { console.line("  \(line)") }
        console.done("Updated to boiler \(ProjectBase.templateVersion)'s templates (merges by \(engine.name))")
        return plan.conflicts
    }

    /// In a git work tree: refuses uncommitted changes in the project unless `force`. Returns
    /// whether the project is in one (then git keeps the old files; else boiler backs them up).
    static func checkGit(_ folder: URL, force: Bool) throws(BoilerError) -> Bool {
        guard let inside = try? Shell.output(["git", "rev-parse", "--is-inside-work-tree"], in: folder),
            inside.trimmingWhitespace == "true"
        else { return false }
        guard !force else { return true }
        let status = try Shell.output(["git", "status", "--porcelain", "--untracked-files=all", "--", "."], in: folder)
        let paths = status.split(separator: "\n").map { String($0.dropFirst(3)) }
        if !paths.isEmpty { throw .uncommittedChanges(folder: folder.path, paths: paths) }
        return true
    }

    /// Outside git: a copy of every file the update changes, under `.boiler/backup/<time>/`,
    /// written in the same step as the update.
    static func addBackups(to plan: inout UpdatePlan, in folder: URL, console: Console) throws(BoilerError) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime]
        let stamp = formatter.string(from: Date()).replacingOccurrences(of: ":", with: "")
        let backup = ".boiler/backup/\(stamp)"
        var copied = 0
        for path in plan.changedFiles {
            let url = folder.appendingPathComponent(path)
            guard let data = try? Data(contentsOf: url) else { continue }
            plan.changes.writes.append(ProjectChanges.Write(path: "\(backup)/\(path)", contents: data))
            copied += 1
        }
        if copied > 0 { console.done("Copied the \(copied) file(s) it changes to \(backup)/") }
    }
}
