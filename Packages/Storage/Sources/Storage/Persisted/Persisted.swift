import Foundation
import Observation
import Serialization

/// A document kept in one file, loaded over defaults and saved atomically on every update.
///
/// BaseModel's `sharedInstance`, made safe: the value is loaded from its save file merged
/// over the defaults (bundled with the app, or given as a value), so keys added in an app update
/// get their defaults while saved values win. Every ``update(_:)`` saves before it returns.
///
/// ```swift
/// let prefs = try await Persisted<Settings>(file: "settings.json", in: store, defaults: bundledDefaultsURL)
/// try await prefs.update { $0.theme = "dark" }
/// for await settings in prefs.changes { apply(settings) }
/// ```
///
/// A SwiftUI view reads ``current`` without `await`; it is `Observable`, so the view re-renders
/// after each update or reload, once the new value is saved.
///
/// Updates are serialised within the process by the actor and across processes by an advisory
/// lock beside the file; an update first re-reads the file when another process saved it, so no
/// update is lost. `Versioned` values are migrated as they load. A file that does not decode is
/// moved aside and reported (``StorageError/corrupt(_:movedTo:underlying:)``), never replaced
/// by defaults — and reported again by every launch until the app restores it
/// (``FileStore/restoreQuarantined(_:)``) or starts fresh (``FileStore/startFresh(_:)``, which
/// keeps the moved file). A file from a newer app version is left alone
/// (``StorageError/newerVersion(_:underlying:)``).
public actor Persisted<Value: Codable & Sendable>: Observable {
    /// The current value.
    public private(set) var value: Value

    /// The store holding the file.
    public nonisolated let store: FileStore
    /// The file's key in the store.
    public nonisolated let key: String

    private let url: URL
    private let serializer: Serializer?
    private let defaults: KeyValue?
    private var identity: FileIdentity?
    private nonisolated let broadcaster = ChangeBroadcaster<Value>()
    private nonisolated let latest: LatestValue<Value>
    private nonisolated let registrar = ObservationRegistrar()

    /// Loads `file` from `store` over the defaults read from `defaults` (a bundled file).
    ///
    /// - Parameters:
    ///   - file: The save file's key, such as `"settings.json"`; its extension picks the format.
    ///   - store: The store holding the save file.
    ///   - defaults: A file of defaults (any supported format, detected from its bytes), or nil
    ///     when the save file must exist.
    ///   - serializer: The serializer for the save file, instead of the one its extension implies.
    /// - Throws: ``StorageError``: ``StorageError/corrupt(_:movedTo:underlying:)`` for a damaged
    ///   save file (moved aside), and on every later launch while the moved file awaits the
    ///   app's decision (``FileStore/restoreQuarantined(_:)`` or ``FileStore/startFresh(_:)``);
    ///   ``StorageError/newerVersion(_:underlying:)``,
    ///   ``StorageError/noDefaults(_:)`` when there is neither a save file nor defaults.
    public init(
        file: String, in store: FileStore, defaults: URL?, using serializer: Serializer? = nil
    )
        async throws(StorageError)
    {
        var tree: KeyValue?
        if let defaults {
            let data = try FileStore.read(defaults)
            do {
                tree = try Codec.migrated(try Codec.tree(from: data, at: defaults, using: nil), as: Value.self)
            } catch {
                throw .corrupt(defaults, movedTo: nil, underlying: error)
            }
        }
        try self.init(file: file, store: store, defaultsTree: tree, serializer: serializer)
    }

    /// Loads `file` from `store` over `defaults`.
    /// - Throws: ``StorageError``, as when loading over a defaults file.
    public init(
        file: String, in store: FileStore, defaults: Value, using serializer: Serializer? = nil
    )
        async throws(StorageError)
    {
        let tree: KeyValue
        do {
            tree = try Codec.tree(encoding: defaults)
        } catch {
            throw .encodingFailed(try store.url(for: file), underlying: error)
        }
        try self.init(file: file, store: store, defaultsTree: tree, serializer: serializer)
    }

    private init(
        file: String, store: FileStore, defaultsTree: KeyValue?, serializer: Serializer?
    )
        throws(StorageError)
    {
        let url = try store.url(for: file)
        try FileStore.createFolder(url.deletingLastPathComponent())
        self.store = store
        self.key = file
        self.url = url
        self.serializer = serializer
        self.defaults = defaultsTree
        let loaded = try Self.locked(url) { () throws(StorageError) in
            try Self.load(url: url, store: store, defaults: defaultsTree, serializer: serializer)
        }
        self.value = loaded.value
        self.latest = LatestValue(loaded.value)
        self.identity = loaded.identity
    }

    /// The value as the last update or reload left it, read without `await`.
    ///
    /// Observable: a reader (a SwiftUI view, `withObservationTracking`) is told after each
    /// ``update(_:)`` or ``reload()``, once the value is saved; never for an update that threw.
    public nonisolated var current: Value {
        registrar.access(self, keyPath: \.current)
        return latest.value
    }

    /// New values, one per ``update(_:)`` or ``reload()`` that produced one.
    ///
    /// Each access returns a new stream; it ends when the stream's task is cancelled. Slow
    /// readers see the newest 64 values.
    public nonisolated var changes: AsyncStream<Value> { broadcaster.stream() }

    /// Changes the value and saves it before returning.
    ///
    /// Holding the file's cross-process lock, the update re-reads the file if another process
    /// saved it since, applies `body`, and saves atomically. If `body` throws, nothing changes.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or a ``StorageError`` from reading or saving.
    @discardableResult
    public func update<Result: Sendable>(_ body: (inout Value) throws -> Result) async throws -> Result {
        let url = url
        let (result, newValue, newIdentity) = try FileLock.withLock(for: url) {
            () throws -> (Result, Value, FileIdentity?) in
            var current = value
            let onDisk = FileIdentity.of(url)
            if onDisk != identity {
                current = try Self.load(url: url, store: store, defaults: defaults, serializer: serializer).value
            }
            let result = try body(&current)
            let data = try Codec.encode(current, for: url, using: serializer)
            try AtomicFile.write(data, to: url, durability: store.durability, attributes: store.attributes)
            return (result, current, FileIdentity.of(url))
        }
        value = newValue
        identity = newIdentity
        publish(newValue)
        return result
    }

    /// Reads the file again (another process may have saved it) and publishes the value.
    /// - Throws: ``StorageError``, as when loading.
    public func reload() async throws(StorageError) {
        let loaded = try Self.locked(url) { () throws(StorageError) in
            try Self.load(url: url, store: store, defaults: defaults, serializer: serializer)
        }
        value = loaded.value
        identity = loaded.identity
        publish(loaded.value)
    }

    /// Tells Observation readers and change streams about a value that is now on disk.
    private func publish(_ newValue: Value) {
        registrar.willSet(self, keyPath: \.current)
        latest.value = newValue
        registrar.didSet(self, keyPath: \.current)
        broadcaster.send(newValue)
    }

    /// Loads the value from disk; call while holding the file's lock.
    ///
    /// A file moved aside as corrupt, by this or an earlier launch, that the app has not yet
    /// restored or started fresh from, stops the load: starting from defaults would quietly drop
    /// the user's data from view, and the next update would bury it.
    private static func load(
        url: URL, store: FileStore, defaults: KeyValue?, serializer: Serializer?
    )
        throws(StorageError) -> (value: Value, identity: FileIdentity?)
    {
        if let moved = FileStore.pendingQuarantines(of: url).last {
            throw FileStore.undecided(url, movedTo: moved) { data in
                _ = try decode(data, at: url, defaults: defaults, serializer: serializer)
            }
        }
        guard let identity = FileIdentity.of(url) else {
            guard let defaults else { throw .noDefaults(url) }
            do {
                return (try Codec.decode(Value.self, from: defaults), nil)
            } catch {
                throw .corrupt(url, movedTo: nil, underlying: error)
            }
        }
        let data = try FileStore.read(url)
        do {
            return (try decode(data, at: url, defaults: defaults, serializer: serializer), identity)
        } catch {
            throw store.quarantine(url, readAs: identity, failure: error, lockHeld: true)
        }
    }

    /// The value in a save file's bytes: migrated, merged over the defaults, decoded.
    private static func decode(
        _ data: Data, at url: URL, defaults: KeyValue?, serializer: Serializer?
    ) throws -> Value {
        let saved = try Codec.migrated(try Codec.tree(from: data, at: url, using: serializer), as: Value.self)
        var merged = saved
        if let defaults {
            merged =
                if let custom = Value.self as? any Mergeable.Type {
                    custom.merge(saved: saved, defaults: defaults)
                } else {
                    KeyLevelMerge.merge(saved: saved, defaults: defaults)
                }
        }
        let value: Value = try Codec.decode(Value.self, from: merged)
        try checkRecognized(saved, decodedAs: value, defaults: defaults, at: url)
        return value
    }

    /// Throws ``StorageError/unrecognized(_:keys:)`` when none of the saved object's keys is one
    /// the model knows — the defaults' keys, or the keys the decoded value encodes to (which also
    /// covers dictionaries, whose keys are data). Such a file decoded only thanks to the
    /// defaults; an empty object, or one sharing a single key, is the app's own.
    private static func checkRecognized(
        _ saved: KeyValue, decodedAs value: Value, defaults: KeyValue?, at url: URL
    )
        throws
    {
        guard case .object(let object) = saved else { return }
        var keys = Set(object.keys)
        if let versioned = Value.self as? any Versioned.Type { keys.remove(versioned.versionKey) }
        if keys.isEmpty { return }
        if case .object(let known)? = defaults, !keys.isDisjoint(with: known.keys) { return }
        // Only a file that shares no key with the defaults pays for encoding the value again.
        if case .object(let encoded) = try Codec.tree(encoding: value), !keys.isDisjoint(with: encoded.keys) { return }
        throw StorageError.unrecognized(url, keys: keys.sorted())
    }

    private static func locked<T>(_ url: URL, _ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        do {
            return try FileLock.withLock(for: url) { () throws -> T in try body() }
        } catch let error as StorageError {
            throw error
        } catch {
            throw .unwritable(url, underlying: error)
        }
    }

    deinit { broadcaster.finish() }
}
