import Foundation

@testable import Serialization

// Values and helpers shared by the suites that pin Serialization's edge cases (JSON numbers and
// syntax, Codable shapes, key strategies, property lists, migrations).

/// The error `body` throws, as a ``SerializationError``, or nil when it throws none or another.
func serializationError(_ body: () throws -> Void) -> SerializationError? {
    do {
        try body()
        return nil
    } catch {
        return error as? SerializationError
    }
}

/// Every format the Serializer writes and reads, for tests that must hold in each.
let everyFormat: [any DataFormat] = [JSONFormat(), PropertyListFormat(.xml), PropertyListFormat(.binary)]

/// One value under a `value` key: the shape a single number or date takes in a document.
struct Wrapped<Value: Codable & Equatable>: Codable, Equatable {
    var value: Value
}

/// A record with one field of each common kind.
struct Record: Codable, Equatable {
    var text: String
    var number: Int
    var real: Double
    var flag: Bool
    var when: Date
    var blob: Data
    var list: [Int]
    var nested: [String: String]
}

/// Encodes `value` with `format` and reads it back.
func roundTrip<T: Codable & Equatable>(
    _ value: T, _ format: any DataFormat, options: CodingOptions = .default
) throws -> T {
    let serializer = Serializer(format: format, options: options)
    return try serializer.read(T.self, from: try serializer.data(value))
}
