import Foundation

/// Encodes `Encodable` values to ``KeyValue`` trees.
///
/// Dates and data become ``KeyValue/date(_:)`` and ``KeyValue/data(_:)`` (unless the options
/// say otherwise); `URL` and `UUID` become strings; `Decimal` and integers beyond `Int` become
/// exact numbers (``KeyValue/number(_:)``); ``Versioned`` values get their version stamped under
/// their version key.
public struct KeyValueEncoder: Sendable {
    /// How dates, data and keys are represented.
    public var options: CodingOptions

    /// An encoder with `options`.
    public init(options: CodingOptions = .default) { self.options = options }

    /// The tree of `value`.
    /// - Throws: ``SerializationError`` when a value cannot be represented (a NaN `Decimal`) or
    ///   the value's own `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> KeyValue {
        let encoder = TreeEncoder(options: options, path: .root)
        return try encoder.box(value, path: .root)
    }
}

extension KeyValue {
    /// The tree of `value` (phase one of serialization): inspectable and editable.
    public init<T: Encodable>(encoding value: T, encoder: KeyValueEncoder = KeyValueEncoder()) throws {
        self = try encoder.encode(value)
    }
}

/// A coding path built as a linked list, so descending costs one small allocation at most.
indirect enum PathNode: Sendable {
    case root
    case key(String, PathNode)
    case index(Int, PathNode)

    var components: [KeyValuePath.Component] {
        var result: [KeyValuePath.Component] = []
        var node = self
        while true {
            switch node {
            case .root: return result.reversed()
            case .key(let key, let parent):
                result.append(.key(key))
                node = parent
            case .index(let index, let parent):
                result.append(.index(index))
                node = parent
            }
        }
    }

    var path: KeyValuePath { KeyValuePath(components) }

    var codingPath: [any CodingKey] {
        components.map { component in
            switch component {
            case .key(let key): TreeCodingKey(stringValue: key)
            case .index(let index): TreeCodingKey(intValue: index)
            }
        }
    }
}

/// A coding key for paths and super encoders.
struct TreeCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
    static let `super` = TreeCodingKey(stringValue: "super")
}
