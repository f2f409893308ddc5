import Foundation
import Serialization
import Yams

/// YAML as a `DataFormat`, on Yams: the optional add-on product.
///
/// ```swift
/// import SerializationYAML
/// let yaml = Serializer(.yaml)
/// try yaml.write(settings, to: url)
/// ```
///
/// Writing is deterministic (sorted keys, block style); dates are ISO 8601 strings and data
/// base64 strings, as in JSON. Reading is bounded: nesting deeper than ``maximumDepth`` and
/// documents that expand (through aliases) past ``maximumNodes`` values are errors. Writing
/// refuses nesting deeper than ``maximumDepth`` as well, so what is written reads back, and a
/// string or key that starts with U+FEFF (Yams drops that character when it reads a scalar).
/// Numbers are exact: doubles are written as their shortest text, integers beyond `Int` and long
/// decimals with all their digits.
public struct YAMLFormat: DataFormat {
    /// The deepest nesting of sequences and mappings this format writes and reads.
    public var maximumDepth: Int
    /// The most values a document may expand to.
    public var maximumNodes: Int

    /// A YAML format.
    ///
    /// - Parameters:
    ///   - maximumDepth: The deepest nesting written and read (`KeyValue.defaultMaximumDepth`,
    ///     as for the other formats).
    ///   - maximumNodes: The most values a document may expand to, aliases included.
    public init(maximumDepth: Int = KeyValue.defaultMaximumDepth, maximumNodes: Int = 10_000_000) {
        self.maximumDepth = maximumDepth
        self.maximumNodes = maximumNodes
    }

    /// YAML.
    public static let kind = FormatKind(name: "YAML", fileExtension: "yaml", isText: true)

    /// ``kind``.
    public var kind: FormatKind { Self.kind }

    /// The YAML text of `tree`.
    ///
    /// - Parameter tree: The tree to write.
    /// - Returns: The tree as UTF-8 YAML text, keys sorted.
    /// - Throws: `SerializationError.unsupportedValue(_:_:)` when Yams cannot represent a value,
    ///   `SerializationError.tooDeep(limit:_:)` for nesting deeper than ``maximumDepth``.
    public func data(from tree: KeyValue) throws -> Data {
        do {
            let text = try serialize(node: try node(tree, depth: 0), allowUnicode: true, sortKeys: true)
            return Data(text.utf8)
        } catch let error as SerializationError {
            throw error
        } catch {
            throw SerializationError.unsupportedValue("\(error)", .init(format: kind.name))
        }
    }

    /// The tree in the YAML text `data`.
    ///
    /// - Parameter data: UTF-8 YAML text.
    /// - Returns: The document's tree; `.null` for an empty document.
    /// - Throws: A `SerializationError`: invalid UTF-8, malformed YAML, a non-string or
    ///   duplicate key, or a document deeper than ``maximumDepth`` or larger than ``maximumNodes``.
    public func tree(from data: Data) throws -> KeyValue {
        guard let text = String(data: data, encoding: .utf8) else {
            throw SerializationError.invalidUTF8(.init(format: kind.name))
        }
        let root: Node?
        do {
            root = try compose(yaml: text)
        } catch {
            throw SerializationError.malformed("\(error)", .init(format: kind.name))
        }
        guard let root else { return .null }
        var budget = maximumNodes
        return try value(root, depth: 0, path: KeyValuePath([]), budget: &budget)
    }

    /// Whether `data` starts with a YAML document marker (`---` or `%YAML`).
    ///
    /// - Parameter data: The first bytes of a file, or all of it.
    /// - Returns: True when `data` starts with `---` or `%YAML`.
    public func matches(_ data: Data) -> Bool {
        data.starts(with: Array("---".utf8)) || data.starts(with: Array("%YAML".utf8))
    }

    /// The YAML node of `tree`; `depth` counts the containers around it.
    func node(_ tree: KeyValue, depth: Int) throws -> Node {
        switch tree {
        case .null: return Node("null", Tag(.null))
        case .bool(let value): return try value.represented()
        case .int(let value): return try value.represented()
        case .double(let value):
            // Yams prints 15 significant digits; the shortest text that reads back as the same
            // Double needs up to 17.
            guard value.isFinite else { return try value.represented() }
            return Node(value.description, Tag(.float))
        case .decimal(let value):
            guard !value.isNaN else {
                throw SerializationError.unsupportedValue("the number NaN", .init(format: kind.name))
            }
            let text = KeyValue.numberText(value)
            return Node(text, Tag(text.contains(".") ? .float : .int))
        case .string(let value): return try Self.scalar(value)
        case .data(let value): return try value.base64EncodedString().represented()
        case .date:
            let text: Data
            do { text = try JSONFormat().data(from: [tree]) } catch {
                throw SerializationError.unsupportedValue(
                    "a date whose year is outside 1…9999 in ISO 8601", .init(format: kind.name))
            }
            let string = String(decoding: text.dropFirst(2).dropLast(2), as: UTF8.self)
            return try string.represented()
        case .array(let elements):
            guard depth < maximumDepth else { throw tooDeep() }
            var nodes: [Node] = []
            nodes.reserveCapacity(elements.count)
            for (position, element) in elements.enumerated() {
                do { nodes.append(try node(element, depth: depth + 1)) } catch let error as SerializationError {
                    throw error.prefixed(with: .index(position))
                }
            }
            return Node(nodes)
        case .object(let object):
            guard depth < maximumDepth else { throw tooDeep() }
            var pairs: [(Node, Node)] = []
            for entry in object {
                do {
                    pairs.append((try Self.scalar(entry.key), try node(entry.value, depth: depth + 1)))
                } catch let error as SerializationError {
                    throw error.prefixed(with: .key(entry.key))
                }
            }
            return Node(pairs)
        }
    }

    /// The node of a string or key. Yams drops a U+FEFF (byte order mark) at the start of a
    /// scalar when it reads one back, so such a string would not round-trip: it is refused.
    static func scalar(_ text: String) throws -> Node {
        guard text.unicodeScalars.first != "\u{FEFF}" else {
            throw SerializationError.unsupportedValue(
                "a string that starts with U+FEFF (YAML readers drop it)", .init(format: kind.name))
        }
        return try text.represented()
    }

    /// The error for a container nested deeper than the limit; the key path is added as the
    /// recursion unwinds.
    func tooDeep() -> SerializationError {
        .tooDeep(limit: maximumDepth, .init(format: kind.name))
    }

    /// The tree of `node`; `depth` counts the containers around it, as the writer counts them.
    func value(_ node: Node, depth: Int, path: KeyValuePath, budget: inout Int) throws -> KeyValue {
        budget -= 1
        guard budget >= 0 else {
            throw SerializationError.tooLarge(limit: maximumNodes, .init(format: kind.name, keyPath: path))
        }
        if node.isContainer, depth >= maximumDepth {
            throw SerializationError.tooDeep(limit: maximumDepth, .init(format: kind.name, keyPath: path))
        }
        switch node {
        case .scalar(let scalar):
            let tag = node.tag
            if tag == Tag(.null) { return .null }
            if tag == Tag(.bool), let bool = node.bool { return .bool(bool) }
            if tag == Tag(.int) || tag == Tag(.float), let number = KeyValue(numberText: scalar.string) {
                // Plain decimal digits are read exactly: Int, Double when that is exact, else Decimal.
                if tag == Tag(.float), case .int(let integer) = number { return .double(Double(integer)) }
                return number
            }
            if tag == Tag(.int), let int = node.int { return .int(int) }
            if tag == Tag(.float), let float = node.float { return .double(float) }
            if tag == Tag(.binary), let data = node.binary { return .data(data) }
            return .string(scalar.string)
        case .sequence(let sequence):
            var elements: [KeyValue] = []
            for (index, element) in sequence.enumerated() {
                elements.append(
                    try value(element, depth: depth + 1, path: path.appending(.index(index)), budget: &budget))
            }
            return .array(elements)
        case .mapping(let mapping):
            var object = KeyValueObject()
            for (keyNode, valueNode) in mapping {
                guard let key = keyNode.string else {
                    throw SerializationError.unsupportedValue(
                        "a non-string key", .init(format: kind.name, keyPath: path))
                }
                guard object[key] == nil else {
                    throw SerializationError.duplicateKey(key, .init(format: kind.name, keyPath: path))
                }
                object[key] = try value(valueNode, depth: depth + 1, path: path.appending(.key(key)), budget: &budget)
            }
            return .object(object)
        case .alias:
            throw SerializationError.unsupportedValue("an unresolved alias", .init(format: kind.name, keyPath: path))
        }
    }
}

extension DataFormat where Self == YAMLFormat {
    /// YAML, from the SerializationYAML add-on.
    public static var yaml: YAMLFormat { YAMLFormat() }
}

extension Node {
    /// Whether this is a sequence or a mapping (what the depth limit counts).
    var isContainer: Bool {
        switch self {
        case .sequence, .mapping: true
        case .scalar, .alias: false
        }
    }
}

extension SerializationError {
    /// This error with `component` put before its key path.
    func prefixed(with component: KeyValuePath.Component) -> SerializationError {
        var copy = self
        copy.location.keyPath = KeyValuePath([component] + copy.location.keyPath.components)
        return copy
    }
}
