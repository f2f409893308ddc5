import Foundation
import Storage

/// How PostgreSQL rows hold records: the Storage package's JSON encoding of each record.
enum RecordCoding {
    static func encode(_ record: some Encodable, in name: String) throws -> Data {
        do {
            return try RecordJSON.data(record)
        } catch {
            throw StorageError.database(name, underlying: error)
        }
    }

    static func decode<Record: Decodable>(_ type: Record.Type, from data: Data, in name: String) throws -> Record {
        do {
            return try RecordJSON.value(type, from: data)
        } catch {
            throw StorageError.corrupt(URL(fileURLWithPath: name), movedTo: nil, underlying: error)
        }
    }
}
