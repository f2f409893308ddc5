import Foundation
import Serialization

/// The one place Storage turns values into bytes and back, through Serialization.
enum Codec {
    /// The serializer for `url`: `explicit` when given, else by extension (`.json`, `.plist`).
    ///
    /// With `fallback`, unknown extensions use JSON instead of throwing.
    static func serializer(
        for url: URL, explicit: Serializer?, fallback: Bool = false
    ) throws(StorageError)
        -> Serializer
    {
        if let explicit { return explicit }
        switch url.pathExtension.lowercased() {
        case "json": return Serializer(.json)
        case "plist": return Serializer(.xmlPropertyList)
        default:
            if fallback { return Serializer(.json) }
            throw .unknownFormat(url)
        }
    }

    static func encode<Value: Encodable>(
        _ value: Value, for url: URL, using explicit: Serializer?
    )
        throws(StorageError) -> Data
    {
        let serializer = try serializer(for: url, explicit: explicit)
        do {
            return try serializer.data(value)
        } catch {
            throw .encodingFailed(url, underlying: error)
        }
    }

    /// Decodes `data`, in the format its bytes show (or the serializer the URL implies).
    static func decode<Value: Decodable>(
        _ type: Value.Type, from data: Data, at url: URL, using explicit: Serializer?
    )
        throws -> Value
    {
        try reader(for: data, at: url, explicit: explicit).read(type, from: data)
    }

    /// The key-value tree in `data`, not yet migrated or decoded.
    static func tree(from data: Data, at url: URL, using explicit: Serializer?) throws -> KeyValue {
        try reader(for: data, at: url, explicit: explicit).tree(from: data)
    }

    /// The tree of `value`, stamped with its version when it is `Versioned`.
    static func tree<Value: Encodable>(encoding value: Value) throws -> KeyValue {
        try KeyValue(encoding: value)
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from tree: KeyValue) throws -> Value {
        try tree.decode(type)
    }

    /// `tree` brought to the current version of `type` when it is `Versioned`, before it is
    /// merged over defaults (merging first would mix keys of two versions); unchanged otherwise.
    static func migrated<Value>(_ tree: KeyValue, as type: Value.Type) throws -> KeyValue {
        guard let versioned = type as? any Versioned.Type else { return tree }
        return try versioned.migrated(tree)
    }

    /// What a failure to load the data at `url` reports when the data is not damaged: it came
    /// from a newer version of the model (``StorageError/newerVersion(_:underlying:)``), or a
    /// migration step threw or the data is older than the oldest version the model reads
    /// (``StorageError/migrationFailed(_:underlying:)``: the data may be fine and the step or
    /// the app wrong). `nil` for any other failure.
    static func refusal(_ failure: any Error, at url: URL) -> StorageError? {
        if isNewerVersion(failure) { return .newerVersion(url, underlying: failure) }
        if isFailedMigration(failure) || isOlderThanSupported(failure) {
            return .migrationFailed(url, underlying: failure)
        }
        return nil
    }

    /// Whether `error` says the data is older than the oldest version the model reads
    /// (`Versioned.oldestStoredVersion`): nothing is wrong with it but this app's age.
    static func isOlderThanSupported(_ error: any Error) -> Bool {
        var current: (any Error)? = error
        while let error = current {
            if case .olderThanSupported = error as? SerializationError { return true }
            current = (error as? StorageError)?.underlyingError
        }
        return false
    }

    /// Whether `error` says the data came from a newer version of the model.
    static func isNewerVersion(_ error: any Error) -> Bool {
        var current: (any Error)? = error
        while let error = current {
            if case .newerVersion = error as? SerializationError { return true }
            if case .migrationFailed(_, let underlying, _) = error as? SerializationError {
                current = underlying
            } else if case .newerVersion = error as? StorageError {
                return true
            } else {
                current = (error as? StorageError)?.underlyingError
            }
        }
        return false
    }

    /// Whether `error` says a migration step threw (rather than the data failing to parse or
    /// decode after migrating).
    static func isFailedMigration(_ error: any Error) -> Bool {
        var current: (any Error)? = error
        while let error = current {
            if case .migrationFailed = error as? SerializationError { return true }
            current = (error as? StorageError)?.underlyingError
        }
        return false
    }

    private static func reader(for data: Data, at url: URL, explicit: Serializer?) throws -> Serializer {
        if let explicit { return explicit }
        if let format = Serializer.format(of: data, among: Serializer.builtInFormats) {
            return Serializer(format: format)
        }
        return try serializer(for: url, explicit: nil, fallback: true)
    }
}
