import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Replaces files atomically: write a temporary sibling, flush it to disk, rename it over the
/// original, and optionally flush the folder so the rename itself survives a power cut.
///
/// A reader — in this process or another — sees either the whole old file or the whole new
/// one, never a mix, because `rename(2)` within one folder is atomic. A process killed mid-save
/// leaves at most a temporary file named `.~<name>.<pid>.<n>.tmp`, which
/// ``removeAbandonedTemporaries(in:)`` deletes once that process is gone.
enum AtomicFile {
    /// Whether `name` is one of the store's own files (temporary, lock), never a user key.
    ///
    /// Compared as bytes, as the file system names files: by `Character`, `".~\u{301}"` would
    /// not start with `".~"`.
    static func isReserved(name: some StringProtocol) -> Bool { name.utf8.starts(with: ".~".utf8) }

    /// Writes `data` to `url` atomically.
    ///
    /// - Parameters:
    ///   - durability: Whether to flush the file before the rename, and the folder after it.
    ///   - attributes: Backup exclusion and file protection to give the new file.
    /// Missing folders on the way to `url` are created.
    /// - Throws: ``StorageError/unwritable(_:underlying:)`` when any step fails (the temporary
    ///   file is removed and the original is untouched), ``StorageError/folderUnavailable(_:underlying:)``
    ///   when the folder cannot be created.
    static func write(
        _ data: Data, to url: URL, durability: Durability, attributes: FileAttributes = .init()
    ) throws(StorageError) {
        do {
            try replace(url, with: data, durability: durability, attributes: attributes)
        } catch .unwritable(_, let underlying) where (underlying as? POSIXError)?.code == .ENOENT {
            // The key's folder is missing (a first save, or a purged cache). Creating folders
            // only now keeps the common save free of the calls that check they exist.
            try FileStore.createFolder(url.deletingLastPathComponent())
            try replace(url, with: data, durability: durability, attributes: attributes)
        }
    }

    /// The save itself works on paths, not URLs: every URL step (its file-system
    /// representation, a last component taken off or added) parses the URL again, and with
    /// five of them a save spent as long in `URL` as in its `open`, `write` and `close`.
    private static func replace(
        _ url: URL, with data: Data, durability: Durability, attributes: FileAttributes
    ) throws(StorageError) {
        var temporary: String?
        do {
            let (destination, mode) = try resolve(url)
            let (folder, fileName) = split(destination)
            let (name, descriptor) = try createTemporary(named: fileName, in: folder, mode: mode)
            // Only a name this save created is ours to remove if the save fails.
            temporary = name
            try writeFile(data, to: descriptor, mode: mode, sync: durability != .none)
            try attributes.apply(toFileAt: name)
            try rename(name, to: destination)
            if durability == .fileAndFolder { try syncFolder(atPath: folder) }
        } catch {
            if let temporary { unlink(atPath: temporary) }
            throw .unwritable(url, underlying: error)
        }
    }

    /// Where a save of `url` lands, and the permissions of the file it replaces.
    ///
    /// A symlink is followed to its final target (through at most 32 links; more is `ELOOP`), so
    /// the save replaces the target atomically in the target's folder and the link stays a
    /// link — as editors and `echo >` treat links; a dangling link's target is created. The mode
    /// is nil when there is no file yet. One `lstat` when the key is a plain file or missing.
    ///
    /// - Returns: The file-system path of the file to replace, and its mode.
    static func resolve(_ url: URL) throws(POSIXError) -> (path: String, mode: mode_t?) {
        var current = url
        for _ in 0..<32 {
            guard let path = current.withUnsafeFileSystemRepresentation({ $0.map { String(cString: $0) } }) else {
                throw POSIXError(.ENAMETOOLONG)
            }
            var info = stat()
            if lstat(path, &info) != 0 {
                if errno == ENOENT { return (path, nil) }
                throw POSIXError(code(errno))
            }
            if info.st_mode & S_IFMT != S_IFLNK { return (path, info.st_mode & 0o7777) }
            let target: String
            do {
                target = try FileManager.default.destinationOfSymbolicLink(atPath: current.path)
            } catch {
                throw POSIXError(.EIO)
            }
            current =
                target.hasPrefix("/")
                ? URL(fileURLWithPath: target)
                : current.deletingLastPathComponent().appendingPathComponent(target).standardizedFileURL
        }
        throw POSIXError(.ELOOP)
    }

    /// Deletes temporary files left in `folder` (recursively) by processes that no longer run.
    ///
    /// Temporary files of live processes, this one included, are kept: they may be mid-save.
    static func removeAbandonedTemporaries(in folder: URL) {
        guard
            let enumerator = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: nil, options: [.skipsPackageDescendants])
        else { return }
        let me = getpid()
        for case let url as URL in enumerator {
            let name = url.lastPathComponent
            guard isReserved(name: name), name.hasSuffix(".tmp") else { continue }
            let parts = name.dropLast(4).split(separator: ".")
            guard parts.count >= 3, let pid = Int32(parts[parts.count - 2]), pid != me else { continue }
            // kill(pid, 0) probes for a process without signalling it; ESRCH means it is gone.
            if pid > 0, kill(pid, 0) != 0, errno == ESRCH { unlink(path: url) }
        }
    }

    /// The folder and the file name of `path`, as `URL` splits it: trailing slashes do not
    /// count, and the folder of a name at the root is `/`.
    static func split(_ path: String) -> (folder: String, name: Substring) {
        let slash = UInt8(ascii: "/")
        var bytes = Substring(path).utf8
        while bytes.count > 1, bytes.last == slash { bytes = bytes.dropLast() }
        guard let last = bytes.lastIndex(of: slash) else { return (".", Substring(bytes)) }
        let name = Substring(bytes[bytes.index(after: last)...])
        let folder = last == bytes.startIndex ? "/" : String(Substring(bytes[..<last]))
        return (folder, name)
    }

    /// Creates the temporary file a save of the file `name` in `folder` writes, exclusively,
    /// and opens it.
    ///
    /// The first choice is this process's fixed name, `.~<name>.<pid>.0.tmp`: the common save
    /// then needs no random number (a `getrandom(2)` call). When that name is taken — another
    /// save of the same key in this process is in flight, or a dead process with a reused pid
    /// left it — the save takes a random name instead (`.~<name>.<pid>.<random>.tmp`), so no
    /// two saves ever write one file.
    ///
    /// The file is created with `mode`, the permissions of the file it will replace (0644 for a
    /// new key), so it is never readable by more users than that file while the new contents are
    /// written; ``writeFile(_:to:mode:sync:)`` restores any bit the umask took.
    private static func createTemporary(
        named name: Substring, in folder: String, mode: mode_t?
    ) throws(POSIXError) -> (String, Int32) {
        let prefix = "\(folder == "/" ? "" : folder)/.~\(name).\(getpid())."
        var suffix: UInt32 = 0
        while true {
            let path = "\(prefix)\(suffix).tmp"
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode ?? 0o644)
            if descriptor >= 0 { return (path, descriptor) }
            if errno == EINTR { continue }
            if errno != EEXIST { throw POSIXError(code(errno)) }
            suffix = UInt32.random(in: 1...UInt32.max)
        }
    }

    /// Writes `data` to the open temporary file `descriptor`, flushes it when `sync`, and
    /// closes it (also when a step fails).
    ///
    /// The file being replaced keeps its permissions (the umask only shapes new files). The
    /// temporary file was created with them, so only the bits the umask took need `fchmod(2)`:
    /// `fstat(2)` reads no more than the inode, where a `fchmod` writes it (a metadata update
    /// on every save, in the profile of `AppCore.run` with a file).
    private static func writeFile(_ data: Data, to descriptor: Int32, mode: mode_t?, sync: Bool) throws(POSIXError) {
        var failure: Int32 = 0
        if let mode {
            var info = stat()
            if fstat(descriptor, &info) != 0 {
                failure = errno
            } else if info.st_mode & 0o7777 != mode, fchmod(descriptor, mode) != 0 {
                failure = errno
            }
        }
        if failure == 0 {
            data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                guard var pointer = buffer.baseAddress else { return }
                var remaining = buffer.count
                while remaining > 0 {
                    let written = Foundation.write(descriptor, pointer, remaining)
                    if written < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    remaining -= written
                    pointer += written
                }
            }
        }
        if failure == 0, sync, flush(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure != 0 { throw POSIXError(code(failure)) }
    }

    private static func rename(_ source: String, to destination: String) throws(POSIXError) {
        if Foundation.rename(source, destination) != 0 { throw POSIXError(code(errno)) }
    }

    /// Flushes a folder's entries, so a rename inside it is on disk.
    static func syncFolder(atPath folder: String) throws(POSIXError) {
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 { throw POSIXError(code(errno)) }
        defer { close(descriptor) }
        if flush(descriptor) != 0 { throw POSIXError(code(errno)) }
    }

    /// Flushes a file or folder to stable storage: 0, or -1 with `errno` set.
    ///
    /// On Apple platforms `fsync` only hands the data to the drive, whose cache may still lose
    /// it on power loss; `F_FULLFSYNC` asks the drive to write its cache out, which is what
    /// `fsync` means on Linux. So ``Durability`` means the same everywhere. File systems that do
    /// not support `F_FULLFSYNC` (some network and FAT volumes) get `fsync`, as SQLite does.
    static func flush(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(descriptor)
    }

    /// Whether `url` is a symbolic link (dangling or not).
    static func isLink(_ url: URL) -> Bool {
        var info = stat()
        let result = url.withUnsafeFileSystemRepresentation { path -> Int32 in
            guard let path else { return -1 }
            return lstat(path, &info)
        }
        return result == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    static func unlink(path url: URL) {
        _ = url.withUnsafeFileSystemRepresentation { path -> Int32 in
            guard let path else { return -1 }
            return Foundation.unlink(path)
        }
    }

    static func unlink(atPath path: String) {
        _ = Foundation.unlink(path)
    }

    private static func code(_ number: Int32) -> POSIXErrorCode {
        POSIXErrorCode(rawValue: number) ?? .EIO
    }
}

/// How hard a save works to survive a crash of the machine, not just of the app.
///
/// "Flush" means `fsync` on Linux and `fcntl(F_FULLFSYNC)` on Apple platforms (where plain
/// `fsync` leaves the data in the drive's cache), so each level promises the same everywhere.
public enum Durability: Sendable, Hashable {
    /// Atomic rename only: survives the app crashing or being killed; a power cut may lose the
    /// latest save, or on some file systems leave an empty file.
    case none
    /// Flush the new file before the rename (the default): a power cut leaves the old or the
    /// new contents, never an empty or partial file; the latest save may still be lost.
    case file
    /// Also flush the folder after the rename, so the new name itself is on disk: once the save
    /// returns, a power cut keeps it.
    case fileAndFolder
}
