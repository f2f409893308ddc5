import Foundation

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
}
