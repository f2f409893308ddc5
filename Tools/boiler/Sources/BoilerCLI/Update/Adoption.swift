import Foundation

/// `boiler update --adopt`: gives a project made before boiler kept a base (or one whose bases
/// were lost or damaged) a base to merge from.
///
/// A file that still hashes to what the record says boiler wrote is its own base. A file that
/// does not, but whose rendering by this boiler does, gets that rendering (the templates did not
/// change it since). Any other file was edited and nothing can say what boiler wrote: it is no
/// longer listed as boiler's, and the next update treats the template's version as a new file
/// beside the user's — a conflict the user resolves once. Each group is reported.
struct Adoption {
    /// What adopting did.
    struct Outcome: Equatable {
        /// Files whose base is the file itself.
        var fromFile: [String] = []
        /// Files whose base is this boiler's rendering.
        var fromRendering: [String] = []
        /// Edited files with no base found: no longer boiler's.
        var released: [String] = []
        /// Commands and models found among the files (records made before they were kept).
        var foundParts: [String] = []
    }

    let folder: URL

    /// Adopts the project whose (validated) record is `record`; writes bases and record in one step.
    func adopt(_ record: ProjectRecord) throws(BoilerError) -> Outcome {
        var next = record
        var outcome = Outcome()
        outcome.foundParts = inferParts(&next)
        let theirs = try ProjectRenderer.render(next, in: folder)
        let version = record.templateVersion ?? record.boilerVersion
        var versions: [String: String] = [:]
        var changes = ProjectChanges()
        for (path, recorded) in record.files.sorted(by: { $0.key < $1.key }) {
            let basePath = ProjectBase.path(of: path)
            let mine = try ProjectBase.readProjectFile(path, in: folder)
            let base: String
            if let mine, ProjectRecord.hash(mine) == recorded {
                base = mine
                outcome.fromFile.append(path)
            } else if let rendered = theirs[path]?.contents, ProjectRecord.hash(rendered) == recorded {
                base = rendered
                outcome.fromRendering.append(path)
            } else {
                outcome.released.append(path)
                next.files[path] = nil
                if FileManager.default.fileExists(atPath: folder.appendingPathComponent(basePath).path) {
                    changes.removals.append(basePath)
                }
                continue
            }
            versions[path] = record.fileVersions?[path] ?? version
            changes.writes.append(ProjectChanges.Write(path: basePath, contents: Data(base.utf8)))
        }
        next.templateVersion = version
        next.fileVersions = versions
        changes.writes.append(ProjectChanges.Write(path: ProjectRecord.fileName, contents: Data(next.json.utf8)))
        try UpdateTransaction.commit(changes, in: folder)
        return outcome
    }

    /// Records made before commands and models were recorded list them only as files: finds
    /// `Sources/<core>/Commands/<Name>.swift` and `Sources/<core>/Designs/<Name>.modelgen.yaml`
    /// that no other rendering explains, and records them. Returns what it found.
    private func inferParts(_ record: inout ProjectRecord) -> [String] {
        guard record.parts?.commands == nil || record.parts?.models == nil else { return [] }
        let explained = Set(((try? ProjectRenderer.render(record, in: folder)) ?? [:]).keys)
        let core = record.template == .library ? record.module : record.module + "Core"
        var commands: [String] = []
        var models: [String] = []
        for path in record.files.keys.sorted() where !explained.contains(path) {
            let file = (path as NSString).lastPathComponent
            if path == "Sources/\(core)/Commands/\(file)", file.hasSuffix(".swift") {
                commands.append(String(file.dropLast(".swift".count)))
            } else if path == "Sources/\(core)/Designs/\(file)", file.hasSuffix(".modelgen.yaml") {
                models.append(String(file.dropLast(".modelgen.yaml".count)))
            }
        }
        let valid = { (name: String) in (try? ProjectName(name, maximumLength: 255))?.module == name }
        var parts = record.parts ?? ProjectRecord.Parts()
        if parts.commands == nil { parts.commands = commands.filter(valid) }
        if parts.models == nil { parts.models = models.filter(valid) }
        record.parts = parts
        return (parts.commands ?? []).map { "command \($0)" } + (parts.models ?? []).map { "model \($0)" }
    }
}
