import Foundation
import Serialization

/// The JSON encoding record backends share, so a collection moved between backends reads the same.
package enum RecordJSON {
    private static let json = Serializer(.json)

    /// The JSON bytes of `value`.
    package static func data(_ value: some Encodable) throws -> Data {
        try json.data(value)
    }

    /// A `Value` decoded from JSON bytes, migrating `Versioned` records. Plain records are read
    /// in one pass straight from the bytes (`Serializer`'s JSON fast path), which keeps decoding
    /// rows from costing several times what the database took to find them.
    package static func value<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try json.read(type, from: data)
    }

    /// A reader for the bodies of many records (the rows of one query), which keeps what it
    /// can between them.
    package static func reader<Value: Decodable>(for type: Value.Type) -> Serializer.Reader<Value> {
        json.reader(for: type)
    }
}
