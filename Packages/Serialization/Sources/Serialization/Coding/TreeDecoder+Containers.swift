import Foundation

struct TreeKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TreeDecoder
    let object: KeyValueObject
    let node: PathNode
    /// The migration the object is read through, if any (see ``TreeDecoder/view``).
    let view: MigrationView?

    init(decoder: TreeDecoder, object: KeyValueObject, node: PathNode, view: MigrationView? = nil) {
        self.decoder = decoder
        self.object = object
        self.node = node
        self.view = view
    }

    var codingPath: [any CodingKey] { node.codingPath }

    var allKeys: [Key] {
        // Keys in the order of the object the migration produces.
        let object = view.map { $0.materialized(self.object) } ?? self.object
        switch decoder.options.keys {
        case .useDefaultKeys: return object.entries.compactMap { Key(stringValue: $0.key) }
        default:
            // Keys are mapped one way (coding key → tree key), so invert by trying the mapping.
            return object.entries.compactMap { entry in
                if let key = Key(stringValue: entry.key), decoder.options.treeKey(key.stringValue) == entry.key {
                    return key
                }
                return Key(stringValue: CodingOptions.camelCased(entry.key))
            }
        }
    }

    @inline(__always)
    private func name(_ key: Key) -> String { decoder.options.treeKey(key.stringValue) }

    func contains(_ key: Key) -> Bool { lookup(name(key)) != nil }

    /// The value under the tree key `name`, through the migration if there is one.
    @inline(__always)
    private func lookup(_ name: String) -> KeyValue? {
        if let view { return view.value(name, in: object) }
        guard let position = object.position(of: name) else { return nil }
        return object.entries[position].value
    }

    @inline(__always)
    private func value(_ key: Key) throws -> KeyValue {
        let name = name(key)
        guard let value = lookup(name) else {
            throw SerializationError.keyNotFound(
                name, SerializationError.Location(keyPath: node.path.appending(.key(name))))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key).isNull }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.unbox(value(key), as: Bool.self, node: .key(name(key), node))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.unbox(value(key), as: String.self, node: .key(name(key), node))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.unboxDouble(value(key), .key(name(key), node))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.unboxFloat(value(key), .key(name(key), node))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try decoder.unboxInt(value(key), .key(name(key), node))
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(key) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(key) }

    @inline(__always)
    private func integer<N: FixedWidthInteger>(_ key: Key) throws -> N {
        let value = try value(key)
        // The common case inline (a stored integer that fits); anything else, with its error,
        // in the general path.
        if case .int(let wide) = value, let number = N(exactly: wide) { return number }
        return try decoder.unboxInteger(value, as: N.self, .key(name(key), node))
    }

    /// The value under `key` when present and not null: what every `decodeIfPresent` reads.
    /// The protocol's default for the scalar types asks `contains`, then `decodeNil`, then
    /// `decode`: three lookups of the same key where one does.
    @inline(__always)
    private func presentValue(_ key: Key) -> (value: KeyValue, name: String)? {
        let name = name(key)
        guard let value = lookup(name) else { return nil }
        if case .null = value { return nil }
        return (value, name)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let (value, name) = presentValue(key) else { return nil }
        return try decoder.unbox(value, as: Bool.self, node: .key(name, node))
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let (value, name) = presentValue(key) else { return nil }
        return try decoder.unbox(value, as: String.self, node: .key(name, node))
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let (value, name) = presentValue(key) else { return nil }
        return try decoder.unboxDouble(value, .key(name, node))
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let (value, name) = presentValue(key) else { return nil }
        return try decoder.unboxFloat(value, .key(name, node))
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let (value, name) = presentValue(key) else { return nil }
        return try decoder.unboxInt(value, .key(name, node))
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try presentInteger(key) }

    @inline(__always)
    private func presentInteger<N: FixedWidthInteger>(_ key: Key) throws -> N? {
        guard let (value, name) = presentValue(key) else { return nil }
        if case .int(let wide) = value, let number = N(exactly: wide) { return number }
        return try decoder.unboxInteger(value, as: N.self, .key(name, node))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unbox(value(key), as: T.self, node: .key(name(key), node))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let (value, name) = presentValue(key) else { return nil }
        return try decoder.unbox(value, as: T.self, node: .key(name, node))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let child: PathNode = .key(name(key), node)
        guard case .object(let nested) = try value(key) else {
            throw decoder.mismatch("an object", try value(key), child)
        }
        return KeyedDecodingContainer(
            TreeKeyedDecodingContainer<NestedKey>(decoder: decoder, object: nested, node: child))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let child: PathNode = .key(name(key), node)
        guard case .array(let nested) = try value(key) else {
            throw decoder.mismatch("an array", try value(key), child)
        }
        return TreeUnkeyedDecodingContainer(decoder: decoder, array: nested, node: child)
    }

    func superDecoder() throws -> any Decoder { superDecoder(named: "super") }

    func superDecoder(forKey key: Key) throws -> any Decoder { superDecoder(named: name(key)) }

    private func superDecoder(named name: String) -> any Decoder {
        TreeDecoder(options: decoder.options, value: lookup(name) ?? .null, node: .key(name, node))
    }
}

struct TreeUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let decoder: TreeDecoder
    let array: [KeyValue]
    let node: PathNode
    var currentIndex = 0

    init(decoder: TreeDecoder, array: [KeyValue], node: PathNode) {
        self.decoder = decoder
        self.array = array
        self.node = node
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private mutating func next(_ expected: @autoclosure () -> String) throws -> KeyValue {
        guard currentIndex < array.count else {
            throw SerializationError.valueNotFound(
                expected: expected() + " (the array has only \(array.count) elements)",
                SerializationError.Location(keyPath: node.path.appending(.index(currentIndex))))
        }
        defer { currentIndex += 1 }
        return array[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard currentIndex < array.count else { return false }
        if array[currentIndex].isNull {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decode(Bool.self as Bool.Type, generic: ()) }
    mutating func decode(_ type: String.Type) throws -> String { try decode(String.self, generic: ()) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decode(Double.self, generic: ()) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decode(Float.self, generic: ()) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decode(Int.self, generic: ()) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer() }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer() }

    private mutating func integer<N: FixedWidthInteger>() throws -> N {
        let index = currentIndex
        let value = try next("\(N.self)")
        return try decoder.unboxInteger(value, as: N.self, .index(index, node))
    }

    private mutating func decode<T: Decodable>(_ type: T.Type, generic: Void) throws -> T {
        let index = currentIndex
        let value = try next("\(T.self)")
        return try decoder.unbox(value, as: T.self, node: .index(index, node))
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decode(type, generic: ()) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let child: PathNode = .index(currentIndex, node)
        let value = try next("an object")
        guard case .object(let nested) = value else { throw decoder.mismatch("an object", value, child) }
        return KeyedDecodingContainer(
            TreeKeyedDecodingContainer<NestedKey>(decoder: decoder, object: nested, node: child))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let child: PathNode = .index(currentIndex, node)
        let value = try next("an array")
        guard case .array(let nested) = value else { throw decoder.mismatch("an array", value, child) }
        return TreeUnkeyedDecodingContainer(decoder: decoder, array: nested, node: child)
    }

    mutating func superDecoder() throws -> any Decoder {
        let child: PathNode = .index(currentIndex, node)
        let value = try next("a value")
        return TreeDecoder(options: decoder.options, value: value, node: child)
    }
}

struct TreeSingleValueDecodingContainer: SingleValueDecodingContainer {
    let decoder: TreeDecoder
    let value: KeyValue
    let node: PathNode

    var codingPath: [any CodingKey] { node.codingPath }

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.unbox(value, as: Bool.self, node: node) }
    func decode(_ type: String.Type) throws -> String { try decoder.unbox(value, as: String.self, node: node) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.unboxDouble(value, node) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.unboxFloat(value, node) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.unboxInt(value, node) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.unboxInteger(value, as: Int8.self, node) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.unboxInteger(value, as: Int16.self, node) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.unboxInteger(value, as: Int32.self, node) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.unboxInteger(value, as: Int64.self, node) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.unboxInteger(value, as: UInt.self, node) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.unboxInteger(value, as: UInt8.self, node) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.unboxInteger(value, as: UInt16.self, node) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.unboxInteger(value, as: UInt32.self, node) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.unboxInteger(value, as: UInt64.self, node) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try decoder.unboxInteger(value, as: Int128.self, node) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try decoder.unboxInteger(value, as: UInt128.self, node) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unbox(value, as: T.self, node: node) }
}
