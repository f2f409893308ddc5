import Foundation

struct TreeKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    let object: PendingObject
    let node: PathNode

    var codingPath: [any CodingKey] { node.codingPath }

    @inline(__always)
    private func key(_ key: Key) -> String { encoder.options.treeKey(key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws { object.set(.null, forKey: self.key(key)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(.bool(value), forKey: self.key(key)) }
    mutating func encode(_ value: String, forKey key: Key) throws {
        object.set(.string(value), forKey: self.key(key))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        object.set(.double(value), forKey: self.key(key))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        object.set(.double(TreeEncoder.widened(value)), forKey: self.key(key))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { object.set(.int(value), forKey: self.key(key)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, key) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { try encodeInteger(value, key) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { try encodeInteger(value, key) }

    private func encodeInteger<N: BinaryInteger>(_ value: N, _ key: Key) throws {
        let name = self.key(key)
        object.set(try encoder.boxInteger(value, path: .key(name, node)), forKey: name)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let name = self.key(key)
        object.set(try encoder.box(value, path: .key(name, node)), forKey: name)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let name = self.key(key)
        let nested = PendingObject()
        object.set(nested, forKey: name)
        return KeyedEncodingContainer(
            TreeKeyedEncodingContainer<NestedKey>(encoder: encoder, object: nested, node: .key(name, node)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let name = self.key(key)
        let nested = PendingArray()
        object.set(nested, forKey: name)
        return TreeUnkeyedEncodingContainer(encoder: encoder, array: nested, node: .key(name, node))
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: self.key(key)) }

    private func superEncoder(named name: String) -> any Encoder {
        let child = TreeEncoder(options: encoder.options, path: .key(name, node))
        object.set(PendingEncoder(child), forKey: name)
        return child
    }
}

struct TreeUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    let array: PendingArray
    let node: PathNode

    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int { array.elements.count }

    mutating func encodeNil() throws { array.elements.append(.null) }
    mutating func encode(_ value: Bool) throws { array.elements.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.elements.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.elements.append(.double(value)) }
    mutating func encode(_ value: Float) throws { array.elements.append(.double(TreeEncoder.widened(value))) }
    mutating func encode(_ value: Int) throws { array.elements.append(.int(value)) }
    mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
    mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
    mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: Int128) throws { try encodeInteger(value) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: UInt128) throws { try encodeInteger(value) }

    private func encodeInteger<N: BinaryInteger>(_ value: N) throws {
        array.elements.append(try encoder.boxInteger(value, path: .index(array.elements.count, node)))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.elements.append(try encoder.box(value, path: .index(array.elements.count, node)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = PendingObject()
        let index = array.elements.count
        array.append(nested)
        return KeyedEncodingContainer(
            TreeKeyedEncodingContainer<NestedKey>(encoder: encoder, object: nested, node: .index(index, node)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = PendingArray()
        let index = array.elements.count
        array.append(nested)
        return TreeUnkeyedEncodingContainer(encoder: encoder, array: nested, node: .index(index, node))
    }

    mutating func superEncoder() -> any Encoder {
        let child = TreeEncoder(options: encoder.options, path: .index(array.elements.count, node))
        array.append(PendingEncoder(child))
        return child
    }
}

struct TreeSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func store(_ value: KeyValue) { encoder.storage = .value(value) }

    mutating func encodeNil() throws { store(.null) }
    mutating func encode(_ value: Bool) throws { store(.bool(value)) }
    mutating func encode(_ value: String) throws { store(.string(value)) }
    mutating func encode(_ value: Double) throws { store(.double(value)) }
    mutating func encode(_ value: Float) throws { store(.double(TreeEncoder.widened(value))) }
    mutating func encode(_ value: Int) throws { store(.int(value)) }
    mutating func encode(_ value: Int8) throws { store(try encoder.boxInteger(value, path: encoder.node)) }
    mutating func encode(_ value: Int16) throws { store(try encoder.boxInteger(value, path: encoder.node)) }
    mutating func encode(_ value: Int32) throws { store(try encoder.boxInteger(value, path: encoder.node)) }
    mutating func encode(_ value: Int64) throws { store(try encoder.boxInteger(value, path: encoder.node)) }
    mutating func encode(_ value: UInt) throws { store(try encoder.boxInteger(value, path: encoder.node)) }
    mutating func encode(_ value: UInt8) throws { store(try encoder.boxInteger(value, path: encoder.node)) }
    mutating func encode(_ value: UInt16) throws { store(try encoder.boxInteger(value, path: encoder.node)) }
    mutating func encode(_ value: UInt32) throws { store(try encoder.boxInteger(value, path: encoder.node)) }
    mutating func encode(_ value: UInt64) throws { store(try encoder.boxInteger(value, path: encoder.node)) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: Int128) throws { store(try encoder.boxInteger(value, path: encoder.node)) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: UInt128) throws { store(try encoder.boxInteger(value, path: encoder.node)) }
    mutating func encode<T: Encodable>(_ value: T) throws { store(try encoder.box(value, path: encoder.node)) }
}
