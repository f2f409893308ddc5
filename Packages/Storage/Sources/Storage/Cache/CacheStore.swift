import Foundation
import Serialization

/// A size-limited cache of Codable values with expiry, in the caches folder.
///
/// Entries are files under one folder (by default `<caches>/<app>/<name>`), named by a hash
/// of their key; each starts with its expiry date. Reading an expired entry deletes it and
/// returns nil; after every write, least-recently-used entries are deleted until the cache is
/// within ``byteLimit``. Caches hold data that can be recreated: a damaged entry is deleted
/// and reads as a miss instead of throwing.
///
/// ```swift
/// let cache = try CacheStore(name: "avatars", app: "com.example.notes", byteLimit: 50_000_000)
/// try await cache.set(profile, for: "user/42", lifetime: 3600)
/// let hit = try await cache.value(Profile.self, for: "user/42")
/// ```
public actor CacheStore {
    /// The folder holding the entries.
    public nonisolated let folder: URL
    /// The most bytes the entries may take; the least recently used go first.
    public nonisolated let byteLimit: Int
    /// How long entries live when ``set(_:for:lifetime:)`` gives no lifetime; nil for ever.
    public nonisolated let defaultLifetime: TimeInterval?

    private let now: @Sendable () -> Date
    private var entries: [String: Entry] = [:]
    private var totalBytes = 0
    private var tick: UInt64 = 0

    private struct Entry {
        var bytes: Int
        var lastUse: UInt64
    }

    /// A cache named `name` in the app's caches folder.
    ///
    /// - Parameters:
    ///   - name: The cache's folder name, such as `"avatars"`.
    ///   - app: The app's identifier.
    ///   - byteLimit: The most bytes the entries may take.
    ///   - defaultLifetime: Seconds an entry lives unless ``set(_:for:lifetime:)`` says otherwise.
    ///   - folder: The base folder; ``StorageFolder/caches`` by default.
    ///   - now: The clock expiry is measured against (inject one in tests).
    public init(
        name: String, app: String, byteLimit: Int, defaultLifetime: TimeInterval? = nil,
        folder: StorageFolder = .caches, now: @escaping @Sendable () -> Date = { Date() }
    ) throws(StorageError) {
        _ = try StoreKey.components(of: name)
        let base = folder.url(app: app)
        self.folder = base.appendingPathComponent(name, isDirectory: true)
        self.byteLimit = max(0, byteLimit)
        self.defaultLifetime = defaultLifetime
        self.now = now
        try FileStore.createFolder(self.folder)
        AtomicFile.removeAbandonedTemporaries(in: self.folder)
        // Start from what earlier runs left, oldest modification first, so LRU order survives.
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let files =
            (try? FileManager.default.contentsOfDirectory(at: self.folder, includingPropertiesForKeys: keys)) ?? []
        let dated = files.filter { !AtomicFile.isReserved(name: $0.lastPathComponent) }.map { url in
            let values = try? url.resourceValues(forKeys: Set(keys))
            return (url.lastPathComponent, values?.fileSize ?? 0, values?.contentModificationDate ?? .distantPast)
        }.sorted { $0.2 < $1.2 }
        for (name, size, _) in dated {
            tick += 1
            entries[name] = Entry(bytes: size, lastUse: tick)
            totalBytes += size
        }
    }

    /// The bytes the entries take now.
    public var byteCount: Int { totalBytes }

    /// The number of entries stored now (expired ones included until read or trimmed).
    public var count: Int { entries.count }

    /// Stores `value` for `key`, replacing any earlier entry, then trims the cache to its limit.
    ///
    /// - Parameters:
    ///   - value: The value to store, encoded as JSON.
    ///   - key: The key to store it under; any string.
    ///   - lifetime: Seconds until the entry expires; ``defaultLifetime`` when nil.
    /// - Throws: ``StorageError/encodingFailed(_:underlying:)`` or ``StorageError/unwritable(_:underlying:)``.
    public func set<Value: Encodable>(
        _ value: Value, for key: String, lifetime: TimeInterval? = nil
    )
        throws(StorageError)
    {
        let name = Self.fileName(for: key)
        let url = folder.appendingPathComponent(name)
        let expiry =
            (lifetime ?? defaultLifetime).map { now().addingTimeInterval($0).timeIntervalSince1970 } ?? .infinity
        var data = Self.header(expiry: expiry, key: key)
        do {
            data.append(try Codec.serializer(for: url, explicit: nil, fallback: true).data(value))
        } catch {
            throw .encodingFailed(url, underlying: error)
        }
        try AtomicFile.write(data, to: url, durability: .none)
        forget(name)
        tick += 1
        entries[name] = Entry(bytes: data.count, lastUse: tick)
        totalBytes += data.count
        trim(to: byteLimit)
    }

    /// The value stored for `key`, or nil when there is none, it expired, or it is damaged.
    public func value<Value: Decodable>(_ type: Value.Type, for key: String) -> Value? {
        let name = Self.fileName(for: key)
        let url = folder.appendingPathComponent(name)
        guard let data = try? Data(contentsOf: url), let (expiry, storedKey, body) = Self.parse(data) else {
            remove(name: name)
            return nil
        }
        // A different key means a hash collision: a miss, and the entry stays for its own key.
        guard storedKey == key else { return nil }
        guard expiry > now().timeIntervalSince1970,
            let value = try? Codec.serializer(for: url, explicit: nil, fallback: true).read(type, from: body)
        else {
            remove(name: name)
            return nil
        }
        tick += 1
        if entries[name] == nil { totalBytes += data.count }
        entries[name] = Entry(bytes: data.count, lastUse: tick)
        return value
    }

    /// Deletes the entry for `key`, if any.
    public func removeValue(for key: String) {
        remove(name: Self.fileName(for: key))
    }

    /// Deletes every entry.
    public func removeAll() {
        for name in Array(entries.keys) { remove(name: name) }
    }

    /// Deletes expired entries (reads every entry's header).
    public func removeExpired() {
        let time = now().timeIntervalSince1970
        for name in Array(entries.keys) {
            let url = folder.appendingPathComponent(name)
            guard let handle = try? FileHandle(forReadingFrom: url) else {
                remove(name: name)
                continue
            }
            let header = (try? handle.read(upToCount: 8)) ?? Data()
            try? handle.close()
            if header.count < 8 || Double(bitPattern: Self.integer(header)) <= time { remove(name: name) }
        }
    }

    /// Deletes least-recently-used entries until the cache takes at most `bytes`.
    public func trim(to bytes: Int) {
        guard totalBytes > bytes else { return }
        for (name, _) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            if totalBytes <= bytes { break }
            remove(name: name)
        }
    }

    private func remove(name: String) {
        AtomicFile.unlink(path: folder.appendingPathComponent(name))
        forget(name)
    }

    private func forget(_ name: String) {
        if let old = entries.removeValue(forKey: name) { totalBytes -= old.bytes }
    }

    /// The entry header: expiry (seconds since 1970, big-endian bits), key length, key.
    static func header(expiry: Double, key: String) -> Data {
        var data = withUnsafeBytes(of: expiry.bitPattern.bigEndian) { Data($0) }
        let keyBytes = Data(key.utf8)
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: keyBytes.count).bigEndian) { data.append(contentsOf: $0) }
        data.append(keyBytes)
        return data
    }

    /// The expiry, key and body of an entry file, or nil when it is damaged.
    static func parse(_ data: Data) -> (Double, String, Data)? {
        guard data.count >= 12 else { return nil }
        let start = data.startIndex
        let expiry = Double(bitPattern: integer(data[start..<start + 8]))
        let length = Int(integer(data[start + 8..<start + 12]))
        guard data.count - 12 >= length, let key = String(data: data[start + 12..<start + 12 + length], encoding: .utf8)
        else { return nil }
        return (expiry, key, Data(data[(start + 12 + length)...]))
    }

    private static func integer(_ bytes: Data) -> UInt64 {
        bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// A file name for any key: 64-bit FNV-1a of the key in hex, so keys may be URLs.
    static func fileName(for key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + ".json"
    }
}
