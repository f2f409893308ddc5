import Foundation

/// Decodes `Decodable` values from ``KeyValue`` trees.
///
/// Reads what ``KeyValueEncoder`` writes with the same options, and is lenient where formats
/// differ: a date may be a ``KeyValue/date(_:)`` or an ISO 8601 string, data may be
/// ``KeyValue/data(_:)`` or base64, and an integral double decodes as an integer. ``Versioned``
/// values are migrated on the tree before they are decoded.
public struct KeyValueDecoder: Sendable {
    /// How dates, data and keys are represented.
    public var options: CodingOptions

    /// A decoder with `options`.
    public init(options: CodingOptions = .default) { self.options = options }

    /// A `T` read from `tree`.
    /// - Throws: ``SerializationError`` naming the key path of a missing key, a value of the
    ///   wrong type, or a failed migration.
    public func decode<T: Decodable>(_ type: T.Type, from tree: KeyValue) throws -> T {
        let decoder = TreeDecoder(options: options, value: tree, node: .root)
        do {
            return try decoder.unbox(tree, as: T.self, node: .root)
        } catch let error as DecodingError {
            throw SerializationError(error)
        }
    }
}

extension KeyValue {
    /// A `T` decoded from this tree (phase two of deserialization).
    public func decode<T: Decodable>(_ type: T.Type, decoder: KeyValueDecoder = KeyValueDecoder()) throws -> T {
        try decoder.decode(type, from: self)
    }
}

extension SerializationError {
    /// The serialization error for a `DecodingError` a model's own `init(from:)` threw.
    init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context):
            self = .typeMismatch(
                expected: "\(type)", found: context.debugDescription,
                Location(keyPath: KeyValuePath(codingPath: context.codingPath)))
        case .valueNotFound(let type, let context):
            self = .valueNotFound(
                expected: "\(type)", Location(keyPath: KeyValuePath(codingPath: context.codingPath)))
        case .keyNotFound(let key, let context):
            self = .keyNotFound(
                key.stringValue, Location(keyPath: KeyValuePath(codingPath: context.codingPath + [key])))
        case .dataCorrupted(let context):
            self = .malformed(
                context.debugDescription, Location(keyPath: KeyValuePath(codingPath: context.codingPath)))
        @unknown default:
            self = .malformed("\(error)", Location())
        }
    }
}
