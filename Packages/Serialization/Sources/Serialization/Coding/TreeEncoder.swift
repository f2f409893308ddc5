import Foundation

/// A container whose value is known only once encoding into it has finished.
class PendingValue {
    func resolve() throws -> KeyValue { .null }
}

/// An object being filled by a keyed container.
final class PendingObject: PendingValue {
    var entries: [KeyValueObject.Element] = []
    var index: [String: Int]?
    var pending: [(Int, PendingValue)] = []

    @inline(__always)
    func set(_ value: KeyValue, forKey key: String) {
        if let position = position(of: key) {
            entries[position].value = value
            return
        }
        entries.append((key, value))
        if index != nil {
            index?[key] = entries.count - 1
        } else if entries.count > KeyValueObject.indexThreshold {
            var built = [String: Int](minimumCapacity: entries.count * 2)
            for (position, entry) in entries.enumerated() { built[entry.key] = position }
            index = built
        }
    }

    @inline(__always)
    func position(of key: String) -> Int? {
        if let index { return index[key] }
        for position in entries.indices where entries[position].key == key { return position }
        return nil
    }

    func set(_ value: PendingValue, forKey key: String) {
        set(KeyValue.null, forKey: key)
        if let position = position(of: key) { pending.append((position, value)) }
    }

    override func resolve() throws -> KeyValue {
        for (position, value) in pending { entries[position].value = try value.resolve() }
        return .object(KeyValueObject(uniqueEntries: entries))
    }
}

/// An array being filled by an unkeyed container.
final class PendingArray: PendingValue {
    var elements: [KeyValue] = []
    var pending: [(Int, PendingValue)] = []

    func append(_ value: PendingValue) {
        pending.append((elements.count, value))
        elements.append(.null)
    }

    override func resolve() throws -> KeyValue {
        for (position, value) in pending { elements[position] = try value.resolve() }
        return .array(elements)
    }
}

/// The value a super encoder produced.
final class PendingEncoder: PendingValue {
    let encoder: TreeEncoder
    init(_ encoder: TreeEncoder) { self.encoder = encoder }
    override func resolve() throws -> KeyValue { try encoder.result() }
}

/// The `Encoder` behind ``KeyValueEncoder``.
final class TreeEncoder: Encoder {
    enum Storage {
        case empty
        case value(KeyValue)
        case object(PendingObject)
        case array(PendingArray)
    }

    let options: CodingOptions
    let node: PathNode
    var storage: Storage = .empty

    init(options: CodingOptions, path: PathNode) {
        self.options = options
        self.node = path
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func result() throws -> KeyValue {
        switch storage {
        case .empty: .object([:])
        case .value(let value): value
        case .object(let object): try object.resolve()
        case .array(let array): try array.resolve()
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: PendingObject
        if case .object(let existing) = storage {
            object = existing
        } else {
            object = PendingObject()
            storage = .object(object)
        }
        return KeyedEncodingContainer(TreeKeyedEncodingContainer<Key>(encoder: self, object: object, node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: PendingArray
        if case .array(let existing) = storage {
            array = existing
        } else {
            array = PendingArray()
            storage = .array(array)
        }
        return TreeUnkeyedEncodingContainer(encoder: self, array: array, node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        TreeSingleValueEncodingContainer(encoder: self)
    }

    /// The tree of `value`, with fast paths for the types every model uses.
    @inline(__always)
    func box<T: Encodable>(_ value: T, path: @autoclosure () -> PathNode) throws -> KeyValue {
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .int(unsafeBitCast(value, to: Int.self)) }
        if T.self == Double.self { return .double(unsafeBitCast(value, to: Double.self)) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        return try boxSlow(value, path: path())
    }

    func boxSlow<T: Encodable>(_ value: T, path: PathNode) throws -> KeyValue {
        switch value {
        case let date as Date: return try boxDate(date, path: path)
        case let data as Data: return boxData(data)
        case let url as URL: return .string(url.absoluteString)
        case let uuid as UUID: return .string(uuid.uuidString)
        case let decimal as Decimal: return try boxDecimal(decimal, path: path)
        case let tree as KeyValue: return tree
        case let number as Float: return .double(Self.widened(number))
        case let number as Int64: return .int(Int(number))
        case let number as Int32: return .int(Int(number))
        case let number as UInt64: return try boxUnsigned(number, path: path)
        case let number as UInt: return try boxUnsigned(UInt64(number), path: path)
        default: break
        }
        if !options.keys.isDefault, let dictionary = value as? any StringKeyedDictionaryEncodable {
            return try dictionary.encodeEntries(with: self, path: path)
        }
        let child = TreeEncoder(options: options, path: path)
        try value.encode(to: child)
        var tree = try child.result()
        if let versioned = T.self as? any Versioned.Type {
            Self.stamp(versioned, into: &tree)
        }
        return tree
    }

    static func stamp<V: Versioned>(_ type: V.Type, into tree: inout KeyValue) {
        guard case .object = tree else { return }
        tree[V.versionKey] = V.version.modelVersion.keyValue
    }

    /// The Double with the Float's shortest decimal: `Float(0.1)` becomes `0.1`, not
    /// `0.10000000149011612`, so text formats print what the model holds (as JSONEncoder does)
    /// and narrowing back to Float gives the same Float.
    static func widened(_ value: Float) -> Double {
        guard value.isFinite else { return Double(value) }
        return Double(value.description) ?? Double(value)
    }

    func boxDate(_ date: Date, path: PathNode) throws -> KeyValue {
        switch options.dates {
        case .iso8601: return .date(date)
        case .secondsSince1970: return .double(date.timeIntervalSince1970)
        case .millisecondsSince1970:
            let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
            guard let integer = Int(exactly: milliseconds) else {
                throw SerializationError.numberOutOfRange(
                    "\(milliseconds)", SerializationError.Location(keyPath: path.path))
            }
            return .int(integer)
        case .secondsSinceReferenceDate: return .double(date.timeIntervalSinceReferenceDate)
        case .custom(let encode, _): return try encode(date)
        }
    }

    func boxData(_ data: Data) -> KeyValue {
        switch options.data {
        case .base64: .data(data)
        case .bytes: .array(data.map { .int(Int($0)) })
        }
    }

    /// A `Decimal` as a number, exactly (see ``KeyValue/number(_:)``); NaN has no number.
    func boxDecimal(_ decimal: Decimal, path: PathNode) throws -> KeyValue {
        guard !decimal.isNaN else {
            throw SerializationError.unsupportedValue("a NaN Decimal", SerializationError.Location(keyPath: path.path))
        }
        return KeyValue.number(decimal)
    }

    func boxUnsigned(_ number: UInt64, path: PathNode) throws -> KeyValue {
        if let integer = Int(exactly: number) { return .int(integer) }
        return .decimal(Decimal(number))
    }

    @inline(__always)
    func boxInteger<N: BinaryInteger>(_ number: N, path: @autoclosure () -> PathNode) throws -> KeyValue {
        if let integer = Int(exactly: number) { return .int(integer) }
        return try boxBigInteger(number, path: path())
    }

    /// An integer beyond `Int` (a large `UInt64`, `Int128`, `UInt128`) as an exact decimal.
    func boxBigInteger<N: BinaryInteger>(_ number: N, path: PathNode) throws -> KeyValue {
        var text = String(number)
        guard let decimal = text.withUTF8({ NumberText.exactDecimal($0) }) else {
            throw SerializationError.numberOutOfRange(text, SerializationError.Location(keyPath: path.path))
        }
        return .decimal(decimal)
    }
}
