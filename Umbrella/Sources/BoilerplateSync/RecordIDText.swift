import Foundation
import Storage

/// Record ids from the protocol's text form (the integer in decimal, a string as is, a UUID in
/// upper case) back to `Record.ID`.
enum RecordIDText {
    static func parse<ID: Codable>(_ text: String, as type: ID.Type) -> ID? {
        if let id = text as? ID { return id }
        let decoder = JSONDecoder()
        if let quoted = try? JSONEncoder().encode(text), let id = try? decoder.decode(ID.self, from: quoted),
            RecordID.string(for: id) == text
        {
            return id
        }
        if let id = try? decoder.decode(ID.self, from: Data(text.utf8)), RecordID.string(for: id) == text {
            return id
        }
        return nil
    }
}
