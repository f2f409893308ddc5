import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files to write and remove in an existing project, all or nothing.
public struct ProjectChanges: Sendable, Equatable {
    /// One file to write.
    public struct Write: Sendable, Equatable {
        /// The path relative to the project.
        public var path: String
        /// The bytes to write.
        public var contents: Data
        /// The file's POSIX permissions (0o644 for text, 0o755 for a script).
        public var mode: Int

        /// A write of `contents` to `path`.
        public init(path: String, contents: Data, mode: Int = 0o644) {
            self.path = path
            self.contents = contents
            self.mode = mode
        }
    }

    /// The files to write, each replacing what is there.
    public var writes: [Write] = []
    /// The files to remove.
    public var removals: [String] = []

    /// No changes yet.
    public init() {}

    /// Whether there is nothing to do.
    public var isEmpty: Bool { writes.isEmpty && removals.isEmpty }
}

/// Writes ``ProjectChanges`` so that a process killed at any point (SIGKILL included) leaves the
/// project as it was or fully changed, the way `boiler new` stages a project (``PlanWriter``).
///
/// Changing an existing project cannot be one rename, so the update is a roll-forward journal:
///
/// 1. every new file is written (and flushed) into `.boiler/pending/files/`, inside the project,
///    so each later move is a rename on the same volume;
/// 2. the journal (`.boiler/pending/journal.json`: which staged file goes where, which files go)
///    is written beside them and renamed into place: **the commit point**;
/// 3. the staged files are renamed over their targets and the removed files unlinked;
/// 4. the journal and the pending folder are removed.
///
/// Killed before step 2, the project is untouched; the next run removes the pending folder.
/// Killed after it, the journal says what is left: every command that reads the record refuses
/// (``BoilerError/updateInterrupted(folder:)``) until `boiler update` finishes it
/// (``finishPending(in:)``), and each step of finishing may itself be repeated.
public enum UpdateTransaction {
    /// The folder an update stages in, relative to the project.
    public static let pendingFolder = ".boiler/pending"

    /// The journal of `folder`'s update in progress.
    public static func journal(in folder: URL) -> URL {
        folder.appendingPathComponent(pendingFolder).appendingPathComponent("journal.json")
    }

    /// The journal's contents: staged file → path, and paths to remove.
    struct Journal: Codable {
        struct Entry: Codable {
            var path: String
            var staged: String
        }
        var writes: [Entry]
        var removals: [String]
    }

    /// Applies `changes` to the project in `folder`, all or nothing.
    /// - Throws: ``BoilerError/outsideProject(path:reason:)`` for a path that would leave the
    ///   project (nothing written); ``BoilerError/writeFailed(path:reason:)`` when staging fails
    ///   (nothing changed) or, after the commit point, when finishing fails (`boiler update`
    ///   finishes it later).
    public static func commit(_ changes: ProjectChanges, in folder: URL) throws(BoilerError) {
        if FileManager.default.fileExists(atPath: journal(in: folder).path) {
            throw .updateInterrupted(folder: folder.path)
        }
        for path in changes.writes.map(\.path) + changes.removals {
            try ProjectPaths.checkInside(path, root: folder)
        }
        try ProjectPaths.checkInside(pendingFolder + "/journal.json", root: folder)
        let pending = folder.appendingPathComponent(pendingFolder)
        let staged = pending.appendingPathComponent("files")
        var entries: [Journal.Entry] = []
        do {
            try? FileManager.default.removeItem(at: pending)
            try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: true)
            for (index, write) in changes.writes.enumerated() {
                stepForTesting()
                try writeDurably(write.contents, to: staged.appendingPathComponent("\(index)"), mode: write.mode)
                entries.append(Journal.Entry(path: write.path, staged: "files/\(index)"))
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(Journal(writes: entries, removals: changes.removals))
            let temporary = pending.appendingPathComponent("journal.tmp")
            try writeDurably(data, to: temporary, mode: 0o644)
            stepForTesting()
            try rename(temporary, to: journal(in: folder))
            syncFolder(pending)
        } catch {
            try? FileManager.default.removeItem(at: pending)
            throw .writeFailed(path: folder.path, reason: error.userMessage)
        }
        _ = try finishPending(in: folder)
    }

    /// Finishes the update in `folder` whose journal is committed, or removes what an update
    /// killed before its commit point staged. Returns whether an update was finished.
    /// - Throws: ``BoilerError/invalidRecord(path:field:reason:)`` for a journal boiler did not
    ///   write; ``BoilerError/writeFailed(path:reason:)`` when a step fails (run it again).
    @discardableResult
    public static func finishPending(in folder: URL) throws(BoilerError) -> Bool {
        let pending = folder.appendingPathComponent(pendingFolder)
        let journalURL = journal(in: folder)
        guard FileManager.default.fileExists(atPath: journalURL.path) else {
            // Staged and never committed: the project was not touched. A link here is not ours.
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: pending.path)) == nil {
                try? FileManager.default.removeItem(at: pending)
            }
            return false
        }
        try ProjectPaths.checkInside(pendingFolder + "/journal.json", root: folder)
        let content: Journal
        do {
            content = try JSONDecoder().decode(Journal.self, from: Data(contentsOf: journalURL))
        } catch {
            throw .invalidRecord(
                path: journalURL.path, field: "(the whole file)", reason: "is not a journal boiler wrote")
        }
        // The journal is a file in the project like any other: its paths are checked again.
        for entry in content.writes {
            try ProjectPaths.checkInside(entry.path, root: folder)
            let name = entry.staged.dropFirst("files/".count)
            guard entry.staged.hasPrefix("files/"), !name.isEmpty, name.allSatisfy(\.isASCII),
                name.allSatisfy(\.isNumber)
            else {
                throw .invalidRecord(
                    path: journalURL.path, field: "writes",
                    reason: "names \(BoilerError.shown(entry.staged)), which is not a file boiler staged")
            }
        }
        for path in content.removals { try ProjectPaths.checkInside(path, root: folder) }
        do {
            for entry in content.writes {
                let source = pending.appendingPathComponent(entry.staged)
                // Moved already by a run that was killed after this step: nothing left to do.
                guard FileManager.default.fileExists(atPath: source.path) else { continue }
                stepForTesting()
                let target = folder.appendingPathComponent(entry.path)
                try FileManager.default.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try rename(source, to: target)
            }
            for path in content.removals {
                stepForTesting()
                let target = folder.appendingPathComponent(path)
                if unlink(target.path) != 0 && errno != ENOENT {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path])
                }
            }
            syncFolder(folder)
            try FileManager.default.removeItem(at: journalURL)
        } catch {
            throw .writeFailed(
                path: folder.path, reason: "\(error.userMessage); run 'boiler update' again to finish the update")
        }
        try? FileManager.default.removeItem(at: pending)
        return true
    }

    /// Writes `data` to `url` and flushes it to the disk before returning.
    static func writeDurably(_ data: Data, to url: URL, mode: Int) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, mode_t(mode))
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        // The mode given to open is masked by the umask; a script must stay executable.
        _ = fchmod(descriptor, mode_t(mode))
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) throws in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }
        guard fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Renames `source` over `target`, replacing it in one step (FileManager's move refuses to).
    static func rename(_ source: URL, to target: URL) throws {
        #if canImport(Darwin)
            let result = Darwin.rename(source.path, target.path)
        #elseif canImport(Glibc)
            let result = Glibc.rename(source.path, target.path)
        #else
            let result = Musl.rename(source.path, target.path)
        #endif
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Flushes a folder's entries (the renames in it), so the journal survives a power cut too.
    static func syncFolder(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// For the crash tests only: `BOILER_TEST_KILL_AT_STEP=N` makes the process send itself
    /// SIGKILL when it reaches its Nth step (staging a file, the commit point, a move, an unlink),
    /// so a test can kill an update at every step in turn, whatever the machine's speed. Unset,
    /// nothing happens.
    static let killStep: Int? = ProcessInfo.processInfo.environment["BOILER_TEST_KILL_AT_STEP"].flatMap { Int($0) }

    /// Steps taken so far; an update runs its steps one after another, on one thread.
    private static let steps = StepCount()

    static func stepForTesting() {
        guard let killStep, steps.next() == killStep else { return }
        kill(getpid(), SIGKILL)
    }
}

/// The number of steps an update has taken (for ``UpdateTransaction/killStep``).
private final class StepCount: @unchecked Sendable {
    // @unchecked: `count` is only touched while `lock` is held.
    private let lock = NSLock()
    private var count = 0

    /// Counts one more step and returns its number, from 1.
    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}
