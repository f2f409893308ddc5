import Foundation

/// A data adapter: turns a ``KeyValue`` tree into bytes and back.
///
/// The built-in formats are ``JSONFormat`` (`.json`) and ``PropertyListFormat``
/// (`.xmlPropertyList`, `.binaryPropertyList`). Your own format is a type with a ``kind`` and
/// the two conversions; give it ``matches(_:)`` to take part in detection.
///
/// Errors should be ``SerializationError``s; the ``Serializer`` adds the file to their location.
public protocol DataFormat: Sendable {
    /// Which format this is, for detection and error messages.
    var kind: FormatKind { get }
    /// Whether the bytes are UTF-8 text (so ``Serializer/string(_:)`` can return them).
    var isText: Bool { get }
    /// The bytes of `tree`.
    func data(from tree: KeyValue) throws -> Data
    /// The tree in `data`.
    func tree(from data: Data) throws -> KeyValue
    /// Whether `data` looks like this format (a cheap check of the first bytes).
    func matches(_ data: Data) -> Bool
}

extension DataFormat {
    /// By default a format is text when its kind says so.
    public var isText: Bool { kind.isText }
    /// By default a format detects nothing.
    public func matches(_ data: Data) -> Bool { false }
}

/// The identity of a format: its name, its usual file extension, whether it is text.
public struct FormatKind: Sendable, Hashable, CustomStringConvertible {
    /// The name errors use: `"JSON"`.
    public var name: String
    /// The usual file extension, without a dot: `"json"`.
    public var fileExtension: String
    /// Whether the format is UTF-8 text.
    public var isText: Bool

    /// A format kind; use it to name your own ``DataFormat``.
    public init(name: String, fileExtension: String, isText: Bool) {
        self.name = name
        self.fileExtension = fileExtension
        self.isText = isText
    }

    /// JSON.
    public static let json = FormatKind(name: "JSON", fileExtension: "json", isText: true)
    /// An XML property list.
    public static let xmlPropertyList = FormatKind(name: "XML property list", fileExtension: "plist", isText: true)
    /// A binary property list (`bplist00`).
    public static let binaryPropertyList = FormatKind(
        name: "binary property list", fileExtension: "plist", isText: false)

    /// The name.
    public var description: String { name }
}
