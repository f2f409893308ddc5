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
            throw failure(error, in: name)
        }
    }

    /// The error for a row of the table `name` that did not decode: what the file store reports
    /// for the same cause (a newer version, a step that threw), and `corrupt` only when the bytes
    /// themselves do not decode, so an app never starts fresh over rows a newer app saved.
    static func failure(_ error: any Error, in name: String) -> StorageError {
        let table = URL(fileURLWithPath: name)
        return Codec.refusal(error, at: table) ?? .corrupt(table, movedTo: nil, underlying: error)
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
                throw RecordCoding.failure(error, in: name)
            }
        }

        /// The record in `data`, as ``RecordCoding/decode(_:from:in:)`` reads it.
        package func decode(_ data: Data) throws -> Record {
            do {
                return try json.read(from: data)
            } catch {
                throw RecordCoding.failure(error, in: name)
            }
        }
    }
}
