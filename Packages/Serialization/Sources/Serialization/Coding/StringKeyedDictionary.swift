import Foundation

// A `[String: Value]` is data, not a type with property names: its keys are written and read as
// they are, whatever the key strategy. Through the standard library's Codable conformance its
// keys would pass through `snakeCase` on the way out (`"fontSize"` → `"font_size"`) and come back
// as `"font_size"`, so the dictionary would not round trip.

/// A `[String: Value]` whose entries the encoder writes without mapping the keys.
protocol StringKeyedDictionaryEncodable {
    /// The object of the entries, each value boxed at `path.key`.
    func encodeEntries(with encoder: TreeEncoder, path: PathNode) throws -> KeyValue
}

/// A `[String: Value]` the decoder reads without mapping the keys.
protocol StringKeyedDictionaryDecodable {
    /// The dictionary of the object `value`.
    static func decodeEntries(from value: KeyValue, with decoder: TreeDecoder, node: PathNode) throws -> Self
}

extension Dictionary: StringKeyedDictionaryEncodable where Key == String, Value: Encodable {
    func encodeEntries(with encoder: TreeEncoder, path: PathNode) throws -> KeyValue {
        var entries: [KeyValueObject.Element] = []
        entries.reserveCapacity(count)
        for (key, value) in self { entries.append((key, try encoder.box(value, path: .key(key, path)))) }
        return .object(KeyValueObject(uniqueEntries: entries))
    }
}

extension Dictionary: StringKeyedDictionaryDecodable where Key == String, Value: Decodable {
    static func decodeEntries(from value: KeyValue, with decoder: TreeDecoder, node: PathNode) throws -> Self {
        guard case .object(let object) = value else {
            throw decoder.mismatch("an object ([String: \(Value.self)])", value, node)
        }
        var result: [String: Value] = [:]
        result.reserveCapacity(object.count)
        for entry in object {
            result[entry.key] = try decoder.unbox(entry.value, as: Value.self, node: .key(entry.key, node))
        }
        return result
    }
}

extension CodingOptions.KeyStrategy {
    /// Whether keys are used as declared (no mapping, so dictionaries need no special path).
    var isDefault: Bool {
        if case .useDefaultKeys = self { true } else { false }
    }
}
