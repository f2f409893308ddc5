import Foundation

/// A three-way merge by `git merge-file`, the well-kept tool, where git is installed.
///
/// git runs as a child process on the calling thread, which waits for it: call this from a
/// thread of its own (``OffPool``), never from one of Swift concurrency's. The conflict style is
/// pinned to git's plain one (`<<<<<<<`, `=======`, `>>>>>>>`), so that a user's
/// `merge.conflictStyle` does not change what boiler writes, and ``LineMerge`` writes the same.
public struct GitMergeFile: Sendable {
    /// The `git` executable, run through `/usr/bin/env` so that `PATH` finds it.
    let launcher = URL(fileURLWithPath: "/usr/bin/env")

    /// A merger that runs `git merge-file`.
    public init() {}

    /// Whether `git` can be run here.
    public static var isAvailable: Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "--version"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Merges `ours` and `theirs`, two descendants of `base`, with `git merge-file -p`.
    /// - Throws: ``BoilerError/commandFailed(command:status:output:)`` when git cannot run or fails.
    public func merge(
        base: String, ours: String, theirs: String, labels: MergeLabels
    ) throws(BoilerError) -> MergeResult {
        let command = "git merge-file"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("boiler-merge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = ["ours", "base", "theirs"].map { folder.appendingPathComponent($0) }
        let errors = folder.appendingPathComponent("stderr")
        let process = Process()
        let output = Pipe()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (file, text) in zip(files, [ours, base, theirs]) { try Data(text.utf8).write(to: file) }
            guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            process.executableURL = launcher
            process.arguments =
                ["git", "-c", "merge.conflictStyle=merge", "merge-file", "-p"]
                + ["-L", labels.ours, "-L", labels.base, "-L", labels.theirs, "--"] + files.map(\.path)
            process.standardOutput = output
            process.standardError = try FileHandle(forWritingTo: errors)
            process.standardInput = FileHandle.nullDevice
            try process.run()
        } catch {
            throw .commandFailed(command: command, status: -1, output: error.userMessage)
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let status = process.terminationStatus
        // git's status is the number of conflicts (at most 127); above that, or a signal, it failed.
        guard process.terminationReason == .exit, (0...127).contains(status) else {
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw .commandFailed(command: command, status: status, output: message)
        }
        return MergeResult(text: String(decoding: data, as: UTF8.self), conflicts: Int(status))
    }
}

/// The three-way merge `boiler update` uses: git's where git runs, else ``LineMerge``.
public enum MergeEngine: Sendable, Equatable {
    /// `git merge-file`.
    case git
    /// The built-in diff3 on `CollectionDifference`.
    case builtIn

    /// git when it can be run, else the built-in merge.
    public static func preferred() -> MergeEngine { GitMergeFile.isAvailable ? .git : .builtIn }

    /// Merges with this engine. Blocks while git runs: call it off Swift concurrency's threads.
    public func merge(
        base: String, ours: String, theirs: String, labels: MergeLabels
    ) throws(BoilerError)
        -> MergeResult
    {
        switch self {
        case .git: return try GitMergeFile().merge(base: base, ours: ours, theirs: theirs, labels: labels)
        case .builtIn: return LineMerge.merge(base: base, ours: ours, theirs: theirs, labels: labels)
        }
    }

    /// The engine's name, for `boiler update`'s output.
    public var name: String {
        switch self {
        case .git: "git merge-file"
        case .builtIn: "boiler's built-in diff3"
        }
    }
}

/// Runs blocking work (child processes, file writes) on a thread of its own, so that waiting
/// never holds one of Swift concurrency's threads (one per core) from other work.
enum OffPool {
    /// The result of `body`, run on a new thread.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws(BoilerError) -> T) async throws(BoilerError) -> T
    {
        let result: Result<T, BoilerError> = await withCheckedContinuation { continuation in
            Thread {
                do throws(BoilerError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }.start()
        }
        return try result.get()
    }
}
