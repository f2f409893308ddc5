import Errors
import Foundation
import _KitSupport

/// What can go wrong while scaffolding, and the exit code each failure ends the CLI with.
public enum BoilerError: AppError, Equatable {
    /// The project name cannot become a Swift module name.
    case invalidName(String, reason: String)
    /// The project name is taken by Swift, Foundation, a test framework or one of the kit's modules.
    case reservedName(String, module: String, suggestion: String)
    /// An option's value is not one the CLI understands.
    case invalidOption(String, value: String, expected: String)
    /// The output folder already holds files the plan would write.
    case conflicts(folder: String, paths: [String])
    /// The folder is not a project made by `boiler new`.
    case notAProject(folder: String)
    /// Writing the project failed; nothing was left behind.
    case writeFailed(path: String, reason: String)
    /// A command the CLI ran (git, swift) failed.
    case commandFailed(command: String, status: Int32, output: String)
    /// `boiler new` was pointed at a folder that already holds entries, without `--force`.
    case folderNotEmpty(folder: String, entries: [String])
    /// The project's `.boiler.json` holds a value boiler will not use: a path that leaves the
    /// project, or a name that is not a Swift identifier where one is written into source.
    case invalidRecord(path: String, field: String, reason: String)
    /// A file would be written outside the project folder (through `..` or a symbolic link).
    case outsideProject(path: String, reason: String)
    /// An argument of `boiler add` (a resource's name or `name:Type` field, a part's name that
    /// the project already uses) is not acceptable; `part` says which.
    case invalidResource(part: String, value: String, reason: String)
    /// A base under `.boiler/base/` (what boiler wrote, which `boiler update` merges from) is
    /// missing, does not match the hash the record gives it, or is not a plain file in the project.
    case invalidBase(path: String, reason: String)
    /// A project file `boiler update` would merge is not text it can merge: too large, not UTF-8,
    /// or a folder where the record names a file.
    case unmergeable(path: String, reason: String)
    /// `boiler update` in a git repository with uncommitted changes, without `--force`.
    case uncommittedChanges(folder: String, paths: [String])
    /// `boiler update` on a project made before boiler kept a base: `--adopt` gives it one.
    case needsAdoption(folder: String)
    /// An update stopped after its commit point (killed, or the machine went down); `boiler
    /// update` finishes it before anything else reads the project.
    case updateInterrupted(folder: String)
    /// `boiler templates --eject` found copies of the template's files already in the project's
    /// `.boiler/templates/`; it never overwrites a copy, which may hold the project's own changes.
    case templateCopiesExist(folder: String, template: String, paths: [String])
    /// A template file cannot be rendered: a project's copy under `.boiler/templates` that is a
    /// link leading out, not a regular file, too large, not Mustache, or naming a value boiler
    /// does not give; or boiler's own bundle is missing.
    case invalidTemplate(path: String, reason: String)

    /// What went wrong, in words a user can act on.
    public var message: String {
        switch self {
        case .invalidName(let name, let reason):
            "\(Self.shown(name)) cannot be used as a name: \(reason)"
        case .reservedName(let name, let module, let suggestion):
            "'\(name)' would collide with the module \(module). Pick another name, such as '\(suggestion)'."
        case .invalidOption(let option, let value, let expected):
            "--\(option) '\(value)' is not valid: expected \(expected)."
        case .conflicts(let folder, let paths):
            "\(folder) already contains \(paths.count) file(s) the new project would write:\n"
                + paths.map { "  \($0)" }.joined(separator: "\n")
                + "\nNothing was written. Use --force to write the other files and keep these as they are."
        case .notAProject(let folder):
            "\(folder) is not a project made by 'boiler new' (no .boiler.json). Run this inside such a project."
        case .writeFailed(let path, let reason):
            "Could not write \(path): \(reason). Nothing was left half-made."
        case .commandFailed(let command, let status, let output):
            "'\(command)' failed with status \(status)" + (output.isEmpty ? "." : ":\n\(output)")
        case .folderNotEmpty(let folder, let entries):
            "\(folder) is not empty; it holds \(entries.count) entr\(entries.count == 1 ? "y" : "ies"):\n"
                + entries.prefix(20).map { "  \($0.debugDescription.dropFirst().dropLast())" }.joined(separator: "\n")
                + (entries.count > 20 ? "\n  … and \(entries.count - 20) more" : "")
                + "\nNothing was written. Pick an empty or new folder, or use --force to add the project's files "
                + "and keep everything already there."
        case .invalidRecord(let path, let field, let reason):
            "\(path): '\(field)' \(reason). Nothing was written; fix or restore the file."
        case .outsideProject(let path, let reason):
            "Refusing to write \(path): \(reason). Nothing was written."
        case .invalidResource(let part, let value, let reason):
            "The \(part) \(Self.shown(value)) cannot be used: \(reason). Nothing was written."
        case .invalidBase(let path, let reason):
            "The base \(Self.shown(path)) \(reason). boiler update merges from it, so it refuses to run; "
                + "nothing was written. Restore .boiler/ from version control, or run 'boiler update --adopt'."
        case .unmergeable(let path, let reason):
            "\(Self.shown(path)) cannot be merged: \(reason). Nothing was written."
        case .uncommittedChanges(let folder, let paths):
            "\(folder) has \(paths.count) uncommitted change(s):\n"
                + paths.prefix(20).map { "  \(Self.shown($0).dropFirst().dropLast())" }.joined(separator: "\n")
                + (paths.count > 20 ? "\n  … and \(paths.count - 20) more" : "")
                + "\nCommit or stash them first, so the update can be reviewed as one diff, or use --force. "
                + "Nothing was written."
        case .needsAdoption(let folder):
            "\(folder) was made before boiler kept a copy of what it wrote (.boiler/base/), which an update "
                + "merges from. Run 'boiler update --adopt' first: files still as boiler wrote them become the "
                + "base, and the others are listed. Nothing was written."
        case .updateInterrupted(let folder):
            "An update of \(folder) was interrupted after it was committed, so its files are part old, part new. "
                + "Run 'boiler update' to finish it."
        case .templateCopiesExist(let folder, let template, let paths):
            // The paths and the name are boiler's own (a bundled folder and its files), never input.
            "\(folder) already has \(paths.count == 1 ? "a copy" : "\(paths.count) copies") of the '\(template)' "
                + "template's files:\n" + paths.prefix(20).map { "  \($0)" }.joined(separator: "\n")
                + (paths.count > 20 ? "\n  … and \(paths.count - 20) more" : "")
                + "\nNothing was written: a copy may hold your changes, and boiler add and update read it. Edit "
                + "the copies in place, or move them aside and eject again to start from boiler's current files "
                + "(then carry your changes over)."
        case .invalidTemplate(let path, let reason):
            // The path is boiler's own name for the file (or its copy's in the project), never input.
            "The template file \(path) cannot be used: \(reason). Nothing was written."
        }
    }

    /// The process exit code: 64 usage (and a project `update` must adopt first), 65 an
    /// untrustworthy `.boiler.json`, base or template file, or a file too large or not text to merge, 73 conflicts
    /// (files in the way, a folder that is not empty, a path outside the project, uncommitted
    /// changes), 75 an interrupted update to finish, 1 other failures.
    public var exitCode: Int32 {
        switch self {
        case .invalidName, .reservedName, .invalidOption, .notAProject, .invalidResource, .needsAdoption: 64
        case .invalidRecord, .invalidBase, .unmergeable, .invalidTemplate: 65
        case .conflicts, .folderNotEmpty, .outsideProject, .uncommittedChanges, .templateCopiesExist: 73
        case .updateInterrupted: 75
        case .writeFailed, .commandFailed: 1
        }
    }

    /// `value` quoted for a message: the kit's one display of untrusted text
    /// (`UntrustedText.shown`), with a higher limit for a path than for a name.
    static func shown(_ value: String, limit: Int = UntrustedText.defaultLimit) -> String {
        UntrustedText.shown(value, limit: limit)
    }
}
