/// Where the value under one key of a migrated object comes from in the stored object: a chain
/// of edit steps (``Migration/Edit``) resolved per key, so the decoder reads a stored value
/// through its migration without copying and rewriting the stored object.
///
/// Each case states exactly what applying the edits leaves under
/// the key: ``MigrationView`` answers what the rewritten object would hold, key by key.
///
/// The cases a generated step makes most (a key renamed once, a key filled) are unboxed, so
/// reading through them allocates and retains nothing.
enum KeySource: Sendable {
    /// The stored value under this key, if present.
    case stored(String)
    /// No value: the key was removed, or renamed away.
    case absent
    /// Always this value (the version stamp).
    case constant(KeyValue)
    /// `firstPresent(.stored(renamed), .stored(target))`: a key renamed once.
    case storedEither(String, String)
    /// `filled(.stored(key), value)`: a key filled once.
    case storedOrFill(String, KeyValue)
    /// A rename's target: the renamed key's value when present, else what the target held.
    indirect case firstPresent(KeySource, KeySource)
    /// A fill: the value when present and not null, else the default.
    indirect case filled(KeySource, KeyValue)
    /// A value-changing edit (`integerToDouble`, `wrapInArray`, `replaceValues`) applied to
    /// the value.
    indirect case transformed(KeySource, Migration.Edit)

    /// `firstPresent(renamed, target)`, unboxed when both are stored keys.
    static func either(_ renamed: KeySource, _ target: KeySource) -> KeySource {
        if case .stored(let first) = renamed, case .stored(let second) = target { return .storedEither(first, second) }
        return .firstPresent(renamed, target)
    }

    /// `filled(source, value)`, unboxed when the source is a stored key.
    static func fill(_ source: KeySource, _ value: KeyValue) -> KeySource {
        if case .stored(let key) = source { return .storedOrFill(key, value) }
        return .filled(source, value)
    }

    /// The value this source gives in `object`, nil when absent.
    func value(in object: KeyValueObject) -> KeyValue? {
        switch self {
        case .stored(let key):
            guard let position = object.position(of: key) else { return nil }
            return object.entries[position].value
        case .absent: return nil
        case .constant(let value): return value
        case .storedEither(let renamed, let target):
            if let position = object.position(of: renamed) { return object.entries[position].value }
            guard let position = object.position(of: target) else { return nil }
            return object.entries[position].value
        case .storedOrFill(let key, let fill):
            guard let position = object.position(of: key), !object.entries[position].value.isNull else { return fill }
            return object.entries[position].value
        case .firstPresent(let renamed, let target):
            return renamed.value(in: object) ?? target.value(in: object)
        case .filled(let source, let fill):
            guard let value = source.value(in: object), !value.isNull else { return fill }
            return value
        case .transformed(let source, let edit):
            return Self.transform(source.value(in: object), by: edit)
        }
    }

    /// What a value-changing edit leaves under its key, given what was there (nil: absent).
    static func transform(_ value: KeyValue?, by edit: Migration.Edit) -> KeyValue? {
        switch edit {
        case .integerToDouble:
            if case .int(let number) = value { return .double(Double(number)) }
            return value
        case .wrapInArray:
            switch value {
            case nil, .null?: return .array([])
            case .array?: return value
            case let one?: return .array([one])
            }
        case .replaceValues(_, let map):
            switch value {
            case .array(var elements)?:
                for index in elements.indices {
                    if let replacement = map[elements[index]] { elements[index] = replacement }
                }
                return .array(elements)
            case let one?: return map[one] ?? one
            case nil: return nil
            }
        case .rename, .fill, .remove, .run: return value
        }
    }
}

/// A migrated object seen through its stored object: what a chain of edit steps and the version
/// stamp would leave, read key by key with no copy of the stored object.
///
/// The decoder builds one per model type and stored version (``MigrationView/init(edits:stamp:)``
/// returns nil when a step cannot be stated this way: a closure step or a `run` edit), and reads
/// every value of a model's keyed container through it. Anything that needs the whole object
/// (its keys, a single-value or unkeyed read) gets ``materialized(_:)``, the object the edits
/// produce.
///
/// A class, so the containers that hold it copy one reference.
final class MigrationView: Sendable {
    /// The keys the steps touch; other keys read as stored. A short list searched in order
    /// (generated steps touch a few keys), apart from their sources so the search reads only
    /// strings.
    let keys: [String]
    /// Where the value under each of ``keys`` comes from.
    let sources: [KeySource]
    /// The edits in order, and the stamp: what ``materialized(_:)`` applies.
    let edits: [Migration.Edit]
    let stamp: (key: String, value: KeyValue)?

    /// The view of `edits` applied in order, then `stamp` set; nil when an edit is `run` (code
    /// that the view cannot read through).
    init?(edits: [Migration.Edit], stamp: (key: String, value: KeyValue)?) {
        var sources: [(key: String, source: KeySource)] = []
        func source(_ key: String) -> KeySource {
            sources.last { $0.key == key }?.source ?? .stored(key)
        }
        func set(_ key: String, _ source: KeySource) {
            if let position = sources.lastIndex(where: { $0.key == key }) {
                sources[position].source = source
            } else {
                sources.append((key, source))
            }
        }
        for edit in edits {
            switch edit {
            case .rename(let key, let newKey):
                guard key != newKey else { continue }
                set(newKey, .either(source(key), source(newKey)))
                set(key, .absent)
            case .fill(let key, let value): set(key, .fill(source(key), value))
            case .remove(let key): set(key, .absent)
            case .integerToDouble(let key), .wrapInArray(let key), .replaceValues(let key, _):
                set(key, .transformed(source(key), edit))
            case .run: return nil
            }
        }
        if let stamp { set(stamp.key, .constant(stamp.value)) }
        self.keys = sources.map(\.key)
        self.sources = sources.map(\.source)
        self.edits = edits
        self.stamp = stamp
    }

    /// The value under `key` in the migrated object, nil when absent.
    @inline(__always)
    func value(_ key: String, in object: KeyValueObject) -> KeyValue? {
        let length = key.utf8.count
        for position in keys.indices where keys[position].utf8.count == length && keys[position] == key {
            return sources[position].value(in: object)
        }
        guard let position = object.position(of: key) else { return nil }
        return object.entries[position].value
    }

    /// The migrated object itself: the stored object with the edits applied and the stamp set,
    /// as the migrator writes it.
    func materialized(_ object: KeyValueObject) -> KeyValueObject {
        var object = object
        // Edits other than `run` (which a view never holds) do not throw.
        try? Migration.Edit.apply(edits, to: &object)
        if let stamp { object[stamp.key] = stamp.value }
        return object
    }
}
