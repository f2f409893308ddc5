import Foundation

/// How request bodies are written as JSON and JSON responses are read.
///
/// The default goes through Serialization, so the client reads and writes the same JSON as
/// the rest of the kit (ISO 8601 dates in UTC, base64 data, sorted keys). Supply your own
/// closures to talk to a server with other conventions.
public struct JSONBodyCoder: Sendable {
    /// Encodes a value to JSON bytes.
    public var encode: @Sendable (any Encodable) throws -> Data
    /// Decodes a value of the given type from JSON bytes.
    public var decode: @Sendable (any Decodable.Type, Data) throws -> Any

    /// A coder from two closures.
    public init(
        encode: @escaping @Sendable (any Encodable) throws -> Data,
        decode: @escaping @Sendable (any Decodable.Type, Data) throws -> Any
    ) {
        self.encode = encode
        self.decode = decode
    }

    /// Decodes a `T` from JSON bytes.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let value = try decode(type, data)
        guard let typed = value as? T else {
            throw DecodingError.typeMismatch(
                T.self, .init(codingPath: [], debugDescription: "The JSON coder returned a \(Swift.type(of: value))."))
        }
        return typed
    }
}
