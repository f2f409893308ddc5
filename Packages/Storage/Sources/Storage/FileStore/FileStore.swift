import Foundation
import Serialization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Codable values in files under one folder, saved atomically.
///
/// ```swift
/// let store = try FileStore(folder: .applicationSupport, app: "com.example.notes")
/// try store.save(settings, as: "settings.json")      // temp file, fsync, rename
/// let settings = try store.load(Settings.self, from: "settings.json")
/// ```
///
/// Keys are relative paths (`"notes/2024/first.json"`): `..`, absolute paths, NUL bytes and
/// empty components are rejected with ``StorageError/invalidKey(_:reason:)`` before anything
/// is touched, so no key reaches outside the folder. The format comes from the key's extension
/// (`.json`, `.plist`) or is given explicitly.
///
/// A file that does not decode is moved aside (``StorageError/corrupt(_:movedTo:underlying:)``)
/// instead of being left for a later save of defaults to destroy; see <doc:NeverLoseUserData>.
///
/// A save replaces a file's contents, not its other properties: the file keeps its permissions
/// (mode), and a key that is a symlink is written through to the link's final target —
/// atomically, by a temporary file in the target's folder — so the link stays a link (a
/// dangling link's target is created; a loop fails with ``StorageError/unwritable(_:underlying:)``).
/// Owner, extended attributes and ACLs are those of the new file. ``remove(_:)`` and a
/// quarantine move the link itself and leave its target alone.
///
/// `FileStore` is a value: copies share the folder. Saves from any number of threads or
/// processes never produce a torn file; use ``Persisted`` for read-modify-write updates that
/// must not lose each other.
public struct FileStore: Sendable {
    /// The folder the store's keys are relative to.
    public let folder: URL
    /// How hard saves work to survive a machine crash; ``Durability/file`` by default.
    public var durability: Durability
    /// Backup exclusion and file protection given to saved files (Apple platforms).
    public var attributes: FileAttributes
    /// What a failed decode does to the file; ``CorruptionPolicy/moveAside`` by default.
    public var corruptionPolicy: CorruptionPolicy

    /// A store in one of the standard folders, namespaced by `app` and created if needed.
    ///
    /// - Parameters:
    ///   - folder: Which standard folder, or ``StorageFolder/custom(_:)``.
    ///   - app: The app's identifier, such as `"com.example.notes"`.
    ///   - durability: How hard saves work to survive a machine crash.
    ///   - attributes: Backup exclusion and file protection for saved files.
    /// - Throws: ``StorageError/folderUnavailable(_:underlying:)`` when the folder cannot be created.
    public init(
        folder: StorageFolder, app: String, durability: Durability = .file, attributes: FileAttributes = .init()
    ) throws(StorageError) {
        if case .custom = folder {} else { _ = try StoreKey.components(of: app) }
        try self.init(directory: folder.url(app: app), durability: durability, attributes: attributes)
    }

    /// A store in any folder, created if needed.
    ///
    /// Opening a store deletes temporary files that processes killed mid-save left behind.
    /// - Throws: ``StorageError/folderUnavailable(_:underlying:)`` when the folder cannot be created.
    public init(
        directory: URL, durability: Durability = .file, attributes: FileAttributes = .init()
    )
        throws(StorageError)
    {
        self.folder = directory.standardizedFileURL
        self.durability = durability
        self.attributes = attributes
        self.corruptionPolicy = .moveAside
        try Self.createFolder(folder)
        AtomicFile.removeAbandonedTemporaries(in: folder)
    }

    /// The longest file name a key may end in, in bytes of UTF-8 (221).
    ///
    /// File systems allow 255 bytes per name; the store keeps 34 of them for the names of its
    /// own files beside a key's (temporary, lock and quarantined files), so that every key it
    /// accepts can be saved, locked and quarantined. Longer keys are refused up front with
    /// ``StorageError/keyTooLong(_:limit:)``, as are keys whose whole path would exceed the
    /// system's path limit.
    public static var maximumKeyNameBytes: Int { StoreKey.maximumNameBytes }

    /// The file URL of `key`.
    /// - Throws: ``StorageError/invalidKey(_:reason:)`` for a key that could leave the folder,
    ///   ``StorageError/keyTooLong(_:limit:)`` for one too long to store.
    public func url(for key: String) throws(StorageError) -> URL {
        try StoreKey.url(of: key, in: folder)
    }

    /// Whether a file is stored under `key`; false for invalid keys.
    public func exists(_ key: String) -> Bool {
        guard let url = try? url(for: key) else { return false }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// Deletes the file stored under `key`; does nothing when there is none.
    ///
    /// Only that one file goes: a folder of the same name (`"notes"` when `"notes/a.json"` is
    /// stored) is not a key's file, so it and the keys under it are left alone, just as
    /// ``exists(_:)`` says no file is stored there. A symlinked key loses the link, not its target.
    /// - Throws: ``StorageError/invalidKey(_:reason:)``, or ``StorageError/unwritable(_:underlying:)``
    ///   when the file exists but cannot be deleted.
    public func remove(_ key: String) throws(StorageError) {
        let url = try url(for: key)
        // unlink(2), unlike FileManager.removeItem, never deletes a folder, let alone its contents.
        let result = url.withUnsafeFileSystemRepresentation { path -> Int32 in
            guard let path else { return -1 }
            return unlink(path) == 0 ? 0 : errno
        }
        switch result {
        case 0, ENOENT, ENOTDIR: return
        case EISDIR where Self.isFolder(url), EPERM where Self.isFolder(url): return  // Linux: EISDIR; Darwin: EPERM.
        default: throw .unwritable(url, underlying: POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO))
        }
    }

    private static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The keys stored under `prefix` (a folder key, or the whole store), sorted.
    ///
    /// The store's own temporary and lock files are not listed; files moved aside as corrupt are.
    public func list(_ prefix: String? = nil) throws(StorageError) -> [String] {
        let root = try prefix.map { (key) throws(StorageError) in try url(for: key) } ?? folder
        guard
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [])
        else { return [] }
        let base = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        var keys: [String] = []
        for case let url as URL in enumerator {
            if AtomicFile.isReserved(name: url.lastPathComponent) { continue }
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            // By bytes: a key's name may start with a combining mark, which would join the
            // folder's last "/" into one `Character` and fail a `Character` prefix test.
            if path.utf8.starts(with: base.utf8) {
                keys.append(String(Substring(path.utf8.dropFirst(base.utf8.count))))
            }
        }
        return keys.sorted()
    }

    /// Saves raw bytes under `key`, atomically.
    /// - Throws: ``StorageError/invalidKey(_:reason:)`` or ``StorageError/unwritable(_:underlying:)``.
    public func save(data: Data, as key: String) throws(StorageError) {
        let url = try url(for: key)
        try AtomicFile.write(data, to: url, durability: durability, attributes: attributes)
    }

    /// The raw bytes stored under `key`.
    /// - Throws: ``StorageError/notFound(_:)`` or ``StorageError/unreadable(_:underlying:)``.
    public func data(at key: String) throws(StorageError) -> Data {
        try Self.read(try url(for: key))
    }

    /// Runs `body` holding the cross-process lock of `key`: other processes' ``Persisted``
    /// updates and `withLock` calls on the same key wait until it returns.
    ///
    /// The lock is re-entrant on the calling thread: `body` may load the key (a corrupt file's
    /// quarantine takes the same lock), call `withLock` on it again, or run inside a
    /// ``Persisted`` update of the key, without waiting on itself.
    public func withLock<T>(_ key: String, _ body: () throws -> T) throws -> T {
        try FileLock.withLock(for: try url(for: key), body)
    }

    static func createFolder(_ url: URL) throws(StorageError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .folderUnavailable(url, underlying: error)
        }
    }

    static func read(_ url: URL) throws(StorageError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) { throw .notFound(url) }
            throw .unreadable(url, underlying: error)
        }
    }
}

/// What a store does with a file that fails to decode.
public enum CorruptionPolicy: Sendable, Hashable {
    /// Rename it to `<name>.corrupt-<timestamp>` so that no later save can overwrite it, then
    /// throw ``StorageError/corrupt(_:movedTo:underlying:)`` (the default).
    case moveAside
    /// Leave it where it is and throw ``StorageError/corrupt(_:movedTo:underlying:)``.
    case leave
}
