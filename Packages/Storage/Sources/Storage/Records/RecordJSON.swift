import Foundation
import Serialization

/// The JSON encoding record backends share, so a collection moved between backends reads the same.
package enum RecordJSON {
    private static let json = Serializer(.json)

    /// The JSON bytes of `value`.
    package static func data(_ value: some Encodable) throws -> Data {
        try json.data(value)
    }

    /// A `Value` decoded from JSON bytes, migrating `Versioned` records.
    package static func value<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        // The one-pass reader answers for plain records and only when its answer is the full
        // reader's; otherwise the full reader reads (and names what is wrong).
        if let value = RecordJSONReader<Value>().value(from: data) { return value }
        return try json.read(type, from: data)
    }

    /// Reads many documents holding a `Value` — the rows of one query — reusing one reader's buffers.
    package struct Reader<Value: Decodable> {
        private let fast = RecordJSONReader<Value>()

        package init() {}

        /// The `Value` in `data`, migrating `Versioned` records.
        package func value(from data: Data) throws -> Value {
            if let value = fast.value(from: data) { return value }
            return try json.read(Value.self, from: data)
        }
    }
}
