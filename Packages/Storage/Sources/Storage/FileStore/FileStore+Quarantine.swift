import Errors
import Foundation
import Serialization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Files moved aside as corrupt stay the app's business until it decides what to do with them.
///
/// A quarantined file is `<name>.corrupt-<timestamp>` beside the key's file. While one exists,
/// every launch of ``Persisted`` on the key, and every load of the key that finds no file,
/// throws ``StorageError/corrupt(_:movedTo:underlying:)`` naming it — the same error the launch
/// that moved it threw — instead of starting from defaults as if nothing had been saved. The app
/// then calls ``FileStore/restoreQuarantined(_:)`` (put the file back, for instance after an
/// update that reads it) or ``FileStore/startFresh(_:)`` (go on without it; the file is kept,
/// renamed `<name>.corrupt-<timestamp>.kept`).
extension FileStore {
    /// The file moved aside from `key` that awaits the app's decision (the newest, when there
    /// are several), or nil.
    /// - Throws: ``StorageError/invalidKey(_:reason:)`` or ``StorageError/keyTooLong(_:limit:)``.
    public func quarantinedFile(for key: String) throws(StorageError) -> URL? {
        Self.pendingQuarantines(of: try url(for: key)).last
    }

    /// Puts the file moved aside from `key` back in place, so the next load tries it again.
    ///
    /// The newest moved file is restored; older ones of the same key, if any, are kept as by
    /// ``startFresh(_:)``. Nothing is replaced: when a file is stored under `key` again, remove
    /// it first.
    /// - Returns: The key's file URL.
    /// - Throws: ``StorageError/notFound(_:)`` when no moved file awaits a decision;
    ///   ``StorageError/unwritable(_:underlying:)`` (`EEXIST`) when a file is stored under `key`.
    @discardableResult
    public func restoreQuarantined(_ key: String) throws(StorageError) -> URL {
        let url = try url(for: key)
        return try locked(url) { () throws(StorageError) -> URL in
            var pending = Self.pendingQuarantines(of: url)
            guard let newest = pending.popLast() else { throw .notFound(url) }
            if FileIdentity.of(url) != nil || AtomicFile.isLink(url) {
                throw .unwritable(url, underlying: POSIXError(.EEXIST))
            }
            do {
                try FileManager.default.moveItem(at: newest, to: url)
            } catch {
                throw .unwritable(url, underlying: error)
            }
            for older in pending { try Self.keep(older) }
            return url
        }
    }

    /// Goes on without the files moved aside from `key`: they are kept, renamed
    /// `<name>.corrupt-<timestamp>.kept`, and no longer stop a launch.
    /// - Returns: Where the kept files are now (empty when none awaited a decision).
    /// - Throws: ``StorageError/unwritable(_:underlying:)`` when one cannot be renamed.
    @discardableResult
    public func startFresh(_ key: String) throws(StorageError) -> [URL] {
        let url = try url(for: key)
        return try locked(url) { () throws(StorageError) -> [URL] in
            var kept: [URL] = []
            for moved in Self.pendingQuarantines(of: url) { kept.append(try Self.keep(moved)) }
            return kept
        }
    }

    /// The value stored under `key`, or nil when nothing is — unless a file moved aside from
    /// `key` awaits the app's decision, which throws instead of pretending nothing was saved.
    ///
    /// - Throws: As ``load(_:from:using:)``, except ``StorageError/notFound(_:)``; and
    ///   ``StorageError/corrupt(_:movedTo:underlying:)`` for an undecided quarantine.
    public func loadIfPresent<Value: Decodable>(
        _ type: Value.Type, from key: String, using serializer: Serializer? = nil
    )
        throws(StorageError) -> Value?
    {
        do {
            return try load(type, from: key, using: serializer)
        } catch .notFound {
            return nil
        }
    }

    /// Moved-aside files of `url` awaiting a decision, oldest first (timestamps sort by name).
    static func pendingQuarantines(of url: URL) -> [URL] {
        let folder = url.deletingLastPathComponent()
        let prefix = url.lastPathComponent + ".corrupt-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && !$0.hasSuffix(keptSuffix) }.sorted()
            .map { folder.appendingPathComponent($0) }
    }

    /// The error a launch throws for an undecided quarantine: the moved file's decoding failure,
    /// found again by `decode`, as the launch that moved it reported.
    static func undecided(_ url: URL, movedTo moved: URL, decode: (Data) throws -> Void) -> StorageError {
        do {
            try decode(try read(moved))
            return .corrupt(url, movedTo: moved, underlying: UndecidedQuarantine(movedTo: moved))
        } catch {
            return .corrupt(url, movedTo: moved, underlying: error)
        }
    }

    static let keptSuffix = ".kept"

    @discardableResult
    private static func keep(_ moved: URL) throws(StorageError) -> URL {
        let kept = moved.deletingLastPathComponent().appendingPathComponent(moved.lastPathComponent + keptSuffix)
        do {
            try FileManager.default.moveItem(at: moved, to: kept)
        } catch {
            throw .unwritable(moved, underlying: error)
        }
        return kept
    }

    private func locked<T>(_ url: URL, _ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        do {
            return try FileLock.withLock(for: url) { () throws -> T in try body() }
        } catch let error as StorageError {
            throw error
        } catch {
            throw .unwritable(url, underlying: error)
        }
    }
}

/// Why a launch still reports a file an earlier launch moved aside although it now decodes (an
/// update of the app learned to read it): the app has not restored it or started fresh yet.
public struct UndecidedQuarantine: AppError {
    /// Where the file was moved.
    public let movedTo: URL

    /// A sentence naming the moved file and what to do.
    public var message: String {
        "The file \(movedTo.lastPathComponent) was moved aside by an earlier launch and awaits a decision: "
            + "restore it or start fresh."
    }
}
