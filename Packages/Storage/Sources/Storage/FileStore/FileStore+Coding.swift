import Foundation
import Serialization

extension FileStore {
    /// Saves `value` under `key`, atomically, in the format of the key's extension.
    ///
    /// - Parameters:
    ///   - value: The value to save; `Versioned` values are stamped with their version.
    ///   - key: A relative path such as `"settings.json"`; missing folders are created.
    ///   - serializer: The serializer to use instead of the one the extension implies.
    /// - Throws: ``StorageError/invalidKey(_:reason:)``, ``StorageError/unknownFormat(_:)``,
    ///   ``StorageError/encodingFailed(_:underlying:)`` or ``StorageError/unwritable(_:underlying:)``.
    public func save<Value: Encodable>(
        _ value: Value, as key: String, using serializer: Serializer? = nil
    )
        throws(StorageError)
    {
        let url = try url(for: key)
        let data = try Codec.encode(value, for: url, using: serializer)
        try AtomicFile.write(data, to: url, durability: durability, attributes: attributes)
    }

    /// Loads the value stored under `key`, running migrations for `Versioned` values.
    ///
    /// - Throws: ``StorageError/notFound(_:)`` when nothing is stored;
    ///   ``StorageError/newerVersion(_:underlying:)`` for a file from a newer app (left in place);
    ///   ``StorageError/corrupt(_:movedTo:underlying:)`` when the file does not decode (moved
    ///   aside unless ``corruptionPolicy`` says otherwise), and again, instead of `notFound`,
    ///   while that moved file awaits the app's decision (see ``quarantinedFile(for:)``).
    public func load<Value: Decodable>(
        _ type: Value.Type, from key: String, using serializer: Serializer? = nil
    )
        throws(StorageError) -> Value
    {
        let url = try url(for: key)
        let identity = FileIdentity.of(url)
        let data: Data
        do {
            data = try Self.read(url)
        } catch .notFound {
            // Only a missing file pays for looking: a moved-aside one must not read as "nothing saved".
            guard let moved = Self.pendingQuarantines(of: url).last else { throw .notFound(url) }
            throw Self.undecided(url, movedTo: moved) { data in
                _ = try Codec.decode(type, from: data, at: url, using: serializer)
            }
        }
        do {
            return try Codec.decode(type, from: data, at: url, using: serializer)
        } catch {
            throw quarantine(url, readAs: identity, failure: error, lockHeld: false)
        }
    }

    /// Turns a decoding failure into the error to throw, moving the file aside when it is corrupt
    /// and still the file that failed (not one another process saved since).
    func quarantine(_ url: URL, readAs identity: FileIdentity?, failure: any Error, lockHeld: Bool) -> StorageError {
        if let error = failure as? StorageError {
            switch error {
            case .newerVersion, .migrationFailed, .unknownFormat, .notFound, .unreadable, .unrecognized: return error
            default: break
            }
        }
        // The data may be fine and the step wrong, or the app too old: a fixed app must still find the file.
        if let refusal = Codec.refusal(failure, at: url) { return refusal }
        guard corruptionPolicy == .moveAside else { return .corrupt(url, movedTo: nil, underlying: failure) }
        // Move the file only if it is still the one that failed, not a good one saved since.
        let moveAside = { () throws -> URL? in
            guard let identity, FileIdentity.of(url) == identity else { return nil }
            let aside = url.deletingLastPathComponent().appendingPathComponent(
                url.lastPathComponent + ".corrupt-" + Self.timestamp())
            try FileManager.default.moveItem(at: url, to: aside)
            return aside
        }
        do {
            // flock locks held by one descriptor exclude another in the same process: never re-lock.
            let moved = lockHeld ? try moveAside() : try FileLock.withLock(for: url, moveAside)
            return .corrupt(url, movedTo: moved, underlying: failure)
        } catch {
            return .corrupt(url, movedTo: nil, underlying: failure)
        }
    }

    /// A sortable UTC timestamp with milliseconds, safe in file names: `20260122T101502.123Z`.
    static func timestamp(_ date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        return formatter.string(from: date)
    }
}
