import Foundation
import Serialization

extension JSONBodyCoder {
    /// JSON through a Serialization `Serializer`: the same deterministic JSON
    /// as the rest of the kit (sorted keys, ISO 8601 dates in UTC, base64 data), versioned
    /// models migrated as they are read.
    public static func serializer(_ serializer: Serializer) -> JSONBodyCoder {
        JSONBodyCoder(
            encode: { value in try serializer.data(value) },
            decode: { type, data in try serializer.read(type, from: data) })
    }

    /// Foundation's `JSONEncoder` and `JSONDecoder` with ISO 8601 dates, for servers whose
    /// JSON Serialization's coder does not match.
    public static let foundation = JSONBodyCoder(
        encode: { value in
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.sortedKeys]
            return try encoder.encode(value)
        },
        decode: { type, data in
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(type, from: data)
        })

    /// The default coder: `Serializer(.json)`.
    public static let standard = JSONBodyCoder.serializer(Serializer(.json))
}
