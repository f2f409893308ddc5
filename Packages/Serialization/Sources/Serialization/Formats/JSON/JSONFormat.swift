import Foundation

/// JSON (RFC 8259), read and written by this package's own parser and writer.
///
/// Writing is deterministic: keys sorted by their UTF-8 bytes (unless ``sortedKeys`` is off),
/// the shortest decimal that reads back as the same `Double`, dates as ISO 8601 in UTC, data
/// as base64. Reading is strict and bounded: one pass, duplicate keys and invalid UTF-8 are
/// errors, nesting is limited to ``maximumDepth``, and every error carries line and column.
/// Writing refuses a tree nested deeper than ``maximumDepth`` too, so what is written reads back.
public struct JSONFormat: DataFormat {
    /// Whether to indent with two spaces and put one value per line.
    public var prettyPrinted: Bool
    /// Whether object keys are written in sorted order (on by default, for stable output).
    public var sortedKeys: Bool
    /// The deepest nesting of arrays and objects this format writes and reads
    /// (``KeyValue/defaultMaximumDepth``, 512, by default).
    public var maximumDepth: Int
    /// Whether an object may repeat a key, the last one winning (off by default: an error).
    public var allowsDuplicateKeys: Bool

    /// A JSON format; the defaults are compact, sorted, strict.
    public init(
        prettyPrinted: Bool = false, sortedKeys: Bool = true, maximumDepth: Int = KeyValue.defaultMaximumDepth,
        allowsDuplicateKeys: Bool = false
    ) {
        self.prettyPrinted = prettyPrinted
        self.sortedKeys = sortedKeys
        self.maximumDepth = maximumDepth
        self.allowsDuplicateKeys = allowsDuplicateKeys
    }

    /// ``FormatKind/json``.
    public var kind: FormatKind { .json }

    /// The JSON text of `tree`, as UTF-8.
    /// - Throws: ``SerializationError/unsupportedValue(_:_:)`` for a NaN or infinite number,
    ///   ``SerializationError/tooDeep(limit:_:)`` for nesting deeper than ``maximumDepth``.
    public func data(from tree: KeyValue) throws -> Data {
        var writer = JSONWriter(prettyPrinted: prettyPrinted, sortedKeys: sortedKeys, maximumDepth: maximumDepth)
        try writer.write(tree)
        return Data(writer.bytes)
    }

    /// The tree in the JSON text `data`.
    /// - Throws: ``SerializationError`` with line and column for malformed input.
    public func tree(from data: Data) throws -> KeyValue {
        try data.withUnsafeBytes { raw in
            var parser = JSONParser(
                bytes: raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth,
                allowsDuplicateKeys: allowsDuplicateKeys)
            return try parser.parseDocument()
        }
    }

    /// Whether `data` starts (after whitespace and a byte order mark) with `{` or `[`.
    public func matches(_ data: Data) -> Bool {
        var iterator = data.prefix(4096).makeIterator()
        var first = true
        while let byte = iterator.next() {
            if first, byte == 0xEF {
                first = false
                continue
            }
            first = false
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0xBB, 0xBF: continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): return true
            default: return false
            }
        }
        return false
    }
}

extension DataFormat where Self == JSONFormat {
    /// Compact, sorted, strict JSON.
    public static var json: JSONFormat { JSONFormat() }
    /// Indented, sorted JSON for people to read.
    public static var prettyJSON: JSONFormat { JSONFormat(prettyPrinted: true) }
}
