import Foundation
import Serialization

/// How database rows (SQLite, PostgreSQL) hold records: the Storage package's JSON encoding of
/// each record, with failures as the store's typed errors naming the table.
package enum RecordCoding {
    package static func encode(_ record: some Encodable, in name: String) throws -> Data {
        do {
            return try RecordJSON.data(record)
        } catch {
            throw StorageError.database(name, underlying: error)
        }
    }

    package static func decode<Record: Decodable>(
        _ type: Record.Type, from data: Data, in name: String
    ) throws -> Record {
        do {
            return try RecordJSON.value(type, from: data)
        } catch {
            throw StorageError.corrupt(URL(fileURLWithPath: name), movedTo: nil, underlying: error)
        }
    }

    /// Decodes the bodies of many rows of one table with one reader.
    package struct Reader<Record: Decodable> {
        private let json: Serializer.Reader<Record>
        private let name: String

        /// A reader of records of the table `name` (for errors).
        package init(in name: String) {
            json = RecordJSON.reader(for: Record.self)
            self.name = name
        }

        /// The record in the bytes `body` points to (valid for the call), as
        /// ``RecordCoding/decode(_:from:in:)`` reads it.
        package func decode(_ body: UnsafeRawBufferPointer) throws -> Record {
            do {
                return try json.read(from: body)
            } catch {
                throw StorageError.corrupt(URL(fileURLWithPath: name), movedTo: nil, underlying: error)
            }
        }

        /// The record in `data`, as ``RecordCoding/decode(_:from:in:)`` reads it.
        package func decode(_ data: Data) throws -> Record {
            do {
                return try json.read(from: data)
            } catch {
                throw StorageError.corrupt(URL(fileURLWithPath: name), movedTo: nil, underlying: error)
            }
        }
    }
}
