import Foundation

extension KeyValue: Codable {
    /// Reads any value: through a ``KeyValueDecoder`` the tree itself, through other decoders
    /// the closest kinds (objects, arrays, Booleans, integers, doubles, strings, null).
    public init(from decoder: any Decoder) throws {
        if let tree = decoder as? TreeDecoder {
            self = tree.value
            return
        }
        if let keyed = try? decoder.container(keyedBy: TreeCodingKey.self) {
            var object = KeyValueObject()
            for key in keyed.allKeys { object[key.stringValue] = try keyed.decode(KeyValue.self, forKey: key) }
            self = .object(object)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [KeyValue] = []
            while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(KeyValue.self)) }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? single.decode(Int.self) {
            self = .int(int)
        } else if let double = try? single.decode(Double.self) {
            self = .double(double)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Writes the value; dates and data take the encoder's own representation.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .int(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .double(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .decimal(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .data(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .date(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let elements):
            var unkeyed = encoder.unkeyedContainer()
            for element in elements { try unkeyed.encode(element) }
        case .object(let object):
            var keyed = encoder.container(keyedBy: TreeCodingKey.self)
            for entry in object { try keyed.encode(entry.value, forKey: TreeCodingKey(stringValue: entry.key)) }
        }
    }
}
