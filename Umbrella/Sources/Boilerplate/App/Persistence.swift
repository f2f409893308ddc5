import Foundation
import Storage

/// Where an ``AppCore`` keeps its model between launches.
public struct Persistence: Sendable {
    enum Kind: Sendable {
        case none
        case file(name: String, folder: StorageFolder, app: String?)
    }

    let kind: Kind

    /// The model lives in memory only.
    public static let none = Persistence(kind: .none)

    /// The model is saved to `name` in `folder` after every command that changes it, and loaded
    /// from there at launch. The format follows the extension (`.json`, `.plist`).
    /// - Parameters:
    ///   - name: The file name, such as `"model.json"`.
    ///   - folder: The folder, such as `.applicationSupport` or `.custom(url)`.
    ///   - app: The app identifier that namespaces the folder; the process name when nil.
    public static func file(_ name: String, in folder: StorageFolder, app: String? = nil) -> Persistence {
        Persistence(kind: .file(name: name, folder: folder, app: app))
    }

    /// The file store and key this persistence saves to; nil for ``none``.
    func store() throws(StorageError) -> (files: FileStore, key: String)? {
        switch kind {
        case .none:
            return nil
        case .file(let name, let folder, let app):
            return (try FileStore(folder: folder, app: app ?? ProcessInfo.processInfo.processName), name)
        }
    }
}

/// Deciding what happens to a save file that an earlier launch found damaged.
///
/// When ``AppCore`` finds its save file damaged, it moves the file aside and its launch throws
/// ``AppCoreError/loadFailed(file:underlying:)`` wrapping `StorageError.corrupt`, which names the
/// moved file. Every later launch throws the same error until the app decides — the user's data
/// is never silently replaced by an empty model:
///
/// ```swift
/// let persistence = Persistence.file("notes.json", in: .applicationSupport)
/// do {
///     app = try await AppCore(model: Notes(), persistence: persistence)
/// } catch AppCoreError.loadFailed {
///     if userChoseStartOver {
///         try persistence.startFresh()          // the damaged file is kept, renamed *.kept
///     } else {
///         try persistence.restoreQuarantined()  // e.g. after an update that reads it
///     }
///     app = try await AppCore(model: Notes(), persistence: persistence)
/// }
/// ```
extension Persistence {
    /// The damaged save file moved aside by an earlier launch that awaits the app's decision,
    /// or nil (also for ``none``).
    /// - Throws: `StorageError` when the folder is unavailable or the file name is not a valid key.
    public func quarantinedFile() throws(StorageError) -> URL? {
        guard let (files, key) = try store() else { return nil }
        return try files.quarantinedFile(for: key)
    }

    /// Puts the moved-aside save file back, so the next launch tries to load it again.
    /// - Returns: The save file's URL; nil for ``none``, which has no file.
    /// - Throws: `StorageError.notFound` when no moved file awaits a decision;
    ///   `StorageError.unwritable` (`EEXIST`) when a save file exists again.
    @discardableResult
    public func restoreQuarantined() throws(StorageError) -> URL? {
        guard let (files, key) = try store() else { return nil }
        return try files.restoreQuarantined(key)
    }

    /// Goes on without the moved-aside save file: it is kept, renamed `….kept`, and the next
    /// launch starts from the model given to ``AppCore``.
    /// - Returns: Where the kept files are now (empty when none awaited a decision).
    /// - Throws: `StorageError.unwritable` when one cannot be renamed.
    @discardableResult
    public func startFresh() throws(StorageError) -> [URL] {
        guard let (files, key) = try store() else { return [] }
        return try files.startFresh(key)
    }
}
