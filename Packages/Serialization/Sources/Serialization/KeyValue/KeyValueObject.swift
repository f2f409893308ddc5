import Foundation

/// The entries of a ``KeyValue/object(_:)``: string keys to values, in insertion order.
///
/// Lookups are linear for small objects and hashed for large ones. Equality and hashing ignore
/// the order of keys; iteration and the formats' writers (unless they sort) keep it.
public struct KeyValueObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One key and its value.
    public typealias Element = (key: String, value: KeyValue)

    /// Objects larger than this keep a hash index beside their entries.
    static let indexThreshold = 12

    @usableFromInline var entries: [Element]
    @usableFromInline var index: [String: Int]?

    /// An empty object.
    public init() {
        entries = []
        index = nil
    }

    /// An object with `entries` in order; a later entry replaces an earlier one with the same key.
    public init(_ entries: some Sequence<(String, KeyValue)>) {
        self.init()
        for (key, value) in entries { self[key] = value }
    }

    /// An object with the keys in the order written.
    public init(dictionaryLiteral elements: (String, KeyValue)...) {
        self.init(elements)
    }

    /// An object from entries known to have distinct keys (the parsers check as they go).
    init(uniqueEntries: [Element]) {
        entries = uniqueEntries
        index = nil
        if entries.count > Self.indexThreshold { rebuildIndex() }
    }

    /// The position of the first entry.
    public var startIndex: Int { entries.startIndex }
    /// The position past the last entry.
    public var endIndex: Int { entries.endIndex }
    /// The entry at `position`.
    public subscript(position: Int) -> Element { entries[position] }

    /// The keys, in order.
    public var keys: [String] { entries.map(\.key) }
    /// The values, in key order.
    public var values: [KeyValue] { entries.map(\.value) }

    /// Where an entry's key lies within the entry.
    @usableFromInline static let keyOffset = MemoryLayout<Element>.offset(of: \Element.key) ?? 0

    /// The position of `key`, if present.
    @inlinable
    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        // Only each entry's key is read, in place: reading `entries[position].key` copies the
        // whole entry, retaining and releasing its value, for every key compared. Comparing
        // lengths first skips the out-of-line string comparison for most other keys.
        let length = key.utf8.count
        return entries.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            let keys = UnsafeRawPointer(base) + Self.keyOffset
            for position in buffer.indices {
                let entryKey = (keys + position * MemoryLayout<Element>.stride).load(as: String.self)
                if entryKey.utf8.count == length && entryKey == key { return position }
            }
            return nil
        }
    }

    /// The value under `key`; setting `nil` removes the key, setting a new key appends it.
    public subscript(key: String) -> KeyValue? {
        get { position(of: key).map { entries[$0].value } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    entries[position].value = newValue
                } else {
                    entries.remove(at: position)
                    if index != nil { rebuildIndex() }
                }
            } else if let newValue {
                entries.append((key, newValue))
                if index != nil {
                    index?[key] = entries.count - 1
                } else if entries.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    /// Removes `key` and returns its value, if present.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> KeyValue? {
        let old = self[key]
        self[key] = nil
        return old
    }

    /// Inserts `value` under `key` at `position`, replacing any existing entry with that key.
    public mutating func insert(_ value: KeyValue, forKey key: String, at position: Int) {
        self[key] = nil
        entries.insert((key, value), at: Swift.min(Swift.max(position, 0), entries.count))
        if index != nil || entries.count > Self.indexThreshold { rebuildIndex() }
    }

    /// Renames `key` to `newKey` in place, keeping its position; returns whether `key` was present.
    @discardableResult
    public mutating func renameKey(_ key: String, to newKey: String) -> Bool {
        guard let position = position(of: key) else { return false }
        if key == newKey { return true }
        let value = entries[position].value
        if let other = self.position(of: newKey) {
            entries[other].value = value
            entries.remove(at: position)
        } else {
            entries[position] = (newKey, value)
        }
        if index != nil { rebuildIndex() }
        return true
    }

    /// The entries sorted by key (by UTF-8 bytes), as deterministic writers emit them.
    public func sortedByKey() -> [Element] {
        entries.sorted { Self.precedes($0.key, $1.key) }
    }

    /// Whether `a` sorts before `b` by UTF-8 bytes: the order writers use for sorted keys.
    static func precedes(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let count = Swift.min(x.count, y.count)
                if count > 0, let base = x.baseAddress, let other = y.baseAddress {
                    let order = memcmp(base, other, count)
                    if order != 0 { return order < 0 }
                }
                return x.count < y.count
            }
        }
    }

    mutating func rebuildIndex() {
        var index = [String: Int](minimumCapacity: entries.count)
        for (position, entry) in entries.enumerated() { index[entry.key] = position }
        self.index = index
    }

    /// Equal when both hold the same keys with equal values, in any order.
    public static func == (lhs: KeyValueObject, rhs: KeyValueObject) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        for (position, entry) in lhs.entries.enumerated() {
            if position < rhs.entries.count, rhs.entries[position].key == entry.key {
                if rhs.entries[position].value != entry.value { return false }
            } else if rhs[entry.key] != entry.value {
                return false
            }
        }
        return true
    }

    /// Hashes the entries independently of their order.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for entry in entries {
            var entryHasher = Hasher()
            entryHasher.combine(entry.key)
            entryHasher.combine(entry.value)
            combined ^= entryHasher.finalize()
        }
        hasher.combine(entries.count)
        hasher.combine(combined)
    }
}
