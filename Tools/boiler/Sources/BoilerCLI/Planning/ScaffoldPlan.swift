import Foundation

/// One file a scaffold will write.
public struct PlannedFile: Sendable, Hashable {
    /// The path relative to the project folder, with `/` separators.
    public var path: String
    /// The file's text.
    public var contents: String
    /// Whether to mark the file executable (scripts).
    public var isExecutable: Bool

    /// Plans a file at `path` with `contents`.
    public init(_ path: String, _ contents: String, isExecutable: Bool = false) {
        self.path = path
        self.contents = contents
        self.isExecutable = isExecutable
    }
}

/// Everything a command would write, decided before anything is written.
public struct ScaffoldPlan: Sendable {
    /// The folder the files go into.
    public var folder: URL
    /// The files, in the order they are listed to the user.
    public var files: [PlannedFile]

    /// Creates a plan for `folder`.
    public init(folder: URL, files: [PlannedFile]) {
        self.folder = folder
        self.files = files.sorted { $0.path < $1.path }
    }

    /// The planned paths that already exist in the folder (files the plan would overwrite).
    public func conflicts(fileManager: FileManager = .default) -> [String] {
        files.map(\.path).filter { fileManager.fileExists(atPath: folder.appendingPathComponent($0).path) }
    }

    /// The entries already in the folder (hidden ones included), sorted; empty when the folder
    /// does not exist. `boiler new` refuses a folder where this is not empty, unless forced.
    public func existingEntries(fileManager: FileManager = .default) -> [String] {
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: folder.path, isDirectory: &isDirectory) else { return [] }
        // A file where the folder should be is in the way as much as a folder with files.
        guard isDirectory.boolValue else { return [folder.lastPathComponent] }
        return ((try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? [folder.lastPathComponent]).sorted()
    }

    /// A listing for `--dry-run`: one line per file with its size.
    public func listing(skipping kept: Set<String> = []) -> [String] {
        files.map { file in
            let mark = kept.contains(file.path) ? "keep " : "write"
            return "\(mark) \(file.path) (\(file.contents.utf8.count) bytes)"
        }
    }
}
