import Foundation
import Yams

/// A parsed YAML or JSON design before it is read: scalars, lists and maps.
enum DesignTree: Sendable {
    case scalar(String)
    case list([DesignTree])
    case map([(key: String, value: DesignTree)])
    case null

    /// Parses YAML text; JSON goes through ``json(_:file:)`` because its maps are unordered.
    static func yaml(_ text: String, file: String) throws -> DesignTree {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ModelGenError.malformedDesign(file: file, path: "", reason: "\(error)")
        } catch {
            throw ModelGenError.malformedDesign(file: file, path: "", reason: "\(error)")
        }
        guard let node else { return .null }
        return convert(node)
    }

    private static func convert(_ node: Node) -> DesignTree {
        switch node {
        case .scalar(let scalar):
            if scalar.style == .plain, ["~", "null", "Null", "NULL", ""].contains(scalar.string) { return .null }
            return .scalar(scalar.string)
        case .sequence(let sequence):
            return .list(sequence.map(convert))
        case .mapping(let mapping):
            return .map(mapping.map { (key: $0.key.string ?? "", value: convert($0.value)) })
        case .alias:
            return .null
        }
    }

    /// Parses JSON text.
    static func json(_ data: Data, file: String) throws -> DesignTree {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data).tree
        } catch let error as DecodingError {
            throw ModelGenError.malformedDesign(file: file, path: "", reason: "not valid JSON (\(error.shortReason))")
        } catch {
            throw ModelGenError.malformedDesign(file: file, path: "", reason: "not valid JSON (\(error))")
        }
    }

    var string: String? {
        if case .scalar(let value) = self { return value }
        return nil
    }
}

extension DecodingError {
    fileprivate var shortReason: String {
        switch self {
        case .dataCorrupted(let context): context.debugDescription
        case .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            context.debugDescription
        @unknown default: "\(self)"
        }
    }
}

/// Decodes any JSON value into a ``DesignTree``; object keys are sorted (JSON objects are unordered).
private struct JSONValue: Decodable {
    var tree: DesignTree

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            var entries: [(key: String, value: DesignTree)] = []
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                entries.append((key.stringValue, try object.decode(JSONValue.self, forKey: key).tree))
            }
            tree = .map(entries)
        } else if var array = try? decoder.unkeyedContainer() {
            var items: [DesignTree] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self).tree) }
            tree = .list(items)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                tree = .null
            } else if let bool = try? single.decode(Bool.self) {
                tree = .scalar(bool ? "true" : "false")
            } else if let int = try? single.decode(Int.self) {
                tree = .scalar(String(int))
            } else if let double = try? single.decode(Double.self) {
                tree = .scalar(String(double))
            } else {
                tree = .scalar(try single.decode(String.self))
            }
        }
    }
}
