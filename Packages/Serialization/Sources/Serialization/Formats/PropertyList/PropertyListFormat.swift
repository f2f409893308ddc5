import Foundation

/// Apple property lists, XML or binary (`bplist00`), read and written by this package.
///
/// Property lists have no `null`: a ``KeyValue/null`` is written as the string `"$null"`, as
/// `PropertyListEncoder` does, and that string reads back as `null`. A *string* `"$null"` is data
/// all the same: the XML writer spells it `&#36;null` and the binary writer stores it as UTF-16,
/// which every property list reader decodes to the text `"$null"` and this reader tells apart
/// from null. See <doc:PropertyListsAndNull> for the one ambiguity left with Foundation's files.
/// Dates and data are native. Keys are written sorted, so output is byte-identical across runs.
public struct PropertyListFormat: DataFormat {
    /// XML or binary.
    public enum Encoding: Sendable, Hashable {
        /// `<?xml …?><plist version="1.0">…`, text.
        case xml
        /// `bplist00…`, compact and fast.
        case binary
    }

    /// Which of the two encodings.
    public var encoding: Encoding
    /// The deepest nesting of arrays and dictionaries this format writes and reads
    /// (``KeyValue/defaultMaximumDepth``, 512, by default).
    public var maximumDepth: Int

    /// A property list format.
    public init(_ encoding: Encoding, maximumDepth: Int = KeyValue.defaultMaximumDepth) {
        self.encoding = encoding
        self.maximumDepth = maximumDepth
    }

    /// ``FormatKind/xmlPropertyList`` or ``FormatKind/binaryPropertyList``.
    public var kind: FormatKind { encoding == .xml ? .xmlPropertyList : .binaryPropertyList }

    /// The property list bytes of `tree`.
    /// - Throws: ``SerializationError/tooDeep(limit:_:)`` for nesting deeper than ``maximumDepth``.
    public func data(from tree: KeyValue) throws -> Data {
        switch encoding {
        case .xml:
            var writer = XMLPropertyListWriter(maximumDepth: maximumDepth)
            try writer.writeDocument(tree)
            return Data(writer.bytes)
        case .binary:
            return try BinaryPropertyListWriter.data(from: tree, maximumDepth: maximumDepth)
        }
    }

    /// The tree in the property list `data` (of this format's encoding).
    public func tree(from data: Data) throws -> KeyValue {
        switch encoding {
        case .xml:
            return try data.withUnsafeBytes { raw in
                var parser = XMLPropertyListParser(bytes: raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
                return try parser.parseDocument()
            }
        case .binary:
            return try data.withUnsafeBytes { raw in
                var reader = try BinaryPropertyListReader(
                    bytes: raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
                return try reader.read()
            }
        }
    }

    /// Whether `data` starts with `bplist00` (binary) or `<?xml`/`<plist`/`<!DOCTYPE plist` (XML).
    public func matches(_ data: Data) -> Bool {
        switch encoding {
        case .binary: return data.starts(with: Array("bplist00".utf8))
        case .xml:
            var head = data.prefix(512)
            if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
            let text = String(decoding: head, as: UTF8.self).drop { $0.isWhitespace }
            return text.hasPrefix("<plist") || text.hasPrefix("<!DOCTYPE plist")
                || (text.hasPrefix("<?xml") && text.contains("<plist"))
        }
    }
}

extension DataFormat where Self == PropertyListFormat {
    /// XML property lists.
    public static var xmlPropertyList: PropertyListFormat { PropertyListFormat(.xml) }
    /// Binary property lists (`bplist00`).
    public static var binaryPropertyList: PropertyListFormat { PropertyListFormat(.binary) }
}
