import Foundation

/// Reads and writes `Codable` models in one ``DataFormat``, in two phases: model ⇄ ``KeyValue``
/// tree ⇄ bytes.
///
/// ```swift
/// let json = Serializer(.json)
/// try json.write(issues, to: fileURL)            // atomic
/// let back = try json.read([Issue].self, from: fileURL)
/// ```
///
/// Errors are ``SerializationError``s naming the file, the format and the key path.
public struct Serializer: Sendable {
    /// The data adapter.
    public let format: any DataFormat
    /// How models become trees.
    public var encoder: KeyValueEncoder
    /// How trees become models.
    public var decoder: KeyValueDecoder
    /// The nesting limit of ``format`` when it is JSON, which models may then be read from in
    /// one pass (worked out once: `format` does not change).
    let jsonDepthLimit: Int?

    /// A serializer for `format`, with `options` for both directions.
    public init(_ format: some DataFormat, options: CodingOptions = .default) {
        self.init(format: format, options: options)
    }

    /// A serializer for a format chosen at run time.
    public init(format: any DataFormat, options: CodingOptions = .default) {
        self.format = format
        encoder = KeyValueEncoder(options: options)
        decoder = KeyValueDecoder(options: options)
        jsonDepthLimit = (format as? JSONFormat)?.maximumDepth
    }

    /// The nesting limit to read `data` in one pass with, or nil when it must be read through a
    /// tree (not JSON, or keys that need converting).
    var onePassDepthLimit: Int? {
        guard let jsonDepthLimit, case .useDefaultKeys = decoder.options.keys else { return nil }
        return jsonDepthLimit
    }

    // MARK: Writing

    /// The tree of `value` (phase one).
    public func tree<T: Encodable>(_ value: T) throws -> KeyValue {
        do { return try encoder.encode(value) } catch { throw located(error) }
    }

    /// The bytes of `value`.
    public func data<T: Encodable>(_ value: T) throws -> Data {
        do { return try format.data(from: encoder.encode(value)) } catch { throw located(error) }
    }

    /// The text of `value`.
    /// - Throws: ``SerializationError/unsupportedValue(_:_:)`` when the format is not text.
    public func string<T: Encodable>(_ value: T) throws -> String {
        guard format.isText else {
            throw SerializationError.unsupportedValue(
                "\(format.kind.name) as text", SerializationError.Location(format: format.kind.name))
        }
        return String(decoding: try data(value), as: UTF8.self)
    }

    /// Writes `value` to the file at `url` atomically: readers see the old file or the new one.
    public func write<T: Encodable>(_ value: T, to url: URL) throws {
        let bytes: Data
        do { bytes = try data(value) } catch { throw located(error, file: url) }
        do {
            try bytes.write(to: url, options: .atomic)
        } catch {
            throw SerializationError.fileAccess(
                underlying: error, SerializationError.Location(file: url, format: format.kind.name))
        }
    }

    /// Writes `value` to `handle` (a pipe, a socket, standard output).
    public func write<T: Encodable>(_ value: T, to handle: FileHandle) throws {
        var bytes = try data(value)
        if format.isText { bytes.append(UInt8(ascii: "\n")) }
        handle.write(bytes)
    }

    /// Prints `value` to standard output; an error is printed to standard error instead.
    public func print<T: Encodable>(_ value: T) {
        do {
            try write(value, to: FileHandle.standardOutput)
        } catch {
            FileHandle.standardError.write(Data("\(error.userMessage)\n".utf8))
        }
    }

    // MARK: Reading

    /// The tree in `data` (phase one of reading); no model is involved.
    public func tree(from data: Data) throws -> KeyValue {
        do { return try format.tree(from: data) } catch { throw located(error) }
    }

    /// A `T` read from `data`; ``Versioned`` models are migrated first, in the same parse.
    ///
    /// JSON holding a plain model (with the default key strategy) is decoded in one pass straight
    /// from the bytes, with no tree in between; the answer, and any error, is the one the two
    /// phases give, which read whatever that pass leaves to them (dates, data, decimals,
    /// migrations, anything unusual).
    public func read<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if let depthLimit = onePassDepthLimit {
            do {
                return try JSONFastReader.value(
                    type, from: data, depthLimit: depthLimit, userInfo: decoder.options.userInfo)
            } catch {
                // Read below, by the reader whose answer (or error) this is.
            }
        }
        return try readThroughTree(type, from: data)
    }

    /// A `T` read in the two phases, bytes → tree → model: what the one-pass JSON reader must
    /// agree with, and reads whatever it leaves.
    func readThroughTree<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do { return try decoder.decode(type, from: format.tree(from: data)) } catch { throw located(error) }
    }

    /// A `T` read from `text`.
    public func read<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try read(type, from: Data(text.utf8))
    }

    /// A `T` read from the file at `url`.
    public func read<T: Decodable>(_ type: T.Type, from url: URL) throws -> T {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: url)
        } catch {
            throw SerializationError.fileAccess(
                underlying: error, SerializationError.Location(file: url, format: format.kind.name))
        }
        do { return try read(type, from: bytes) } catch { throw located(error, file: url) }
    }

    /// A `T` read from `handle` to its end (a pipe, standard input).
    public func read<T: Decodable>(_ type: T.Type, from handle: FileHandle) throws -> T {
        try read(type, from: handle.readDataToEndOfFile())
    }

    /// `error` as a ``SerializationError`` with this format and `file` in its location.
    func located(_ error: any Error, file: URL? = nil) -> any Error {
        if let error = error as? SerializationError { return error.located(file: file, format: format.kind.name) }
        if let error = error as? DecodingError {
            return SerializationError(error).located(file: file, format: format.kind.name)
        }
        if let error = error as? EncodingError, case .invalidValue(_, let context) = error {
            return SerializationError.unsupportedValue(
                context.debugDescription,
                SerializationError.Location(
                    file: file, format: format.kind.name, keyPath: KeyValuePath(codingPath: context.codingPath)))
        }
        return error
    }
}
