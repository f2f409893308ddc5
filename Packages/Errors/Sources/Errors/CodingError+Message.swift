extension DecodingError {
    /// `"No value for key 'title' at 'items[2]'."` and the like.
    var readableMessage: String {
        switch self {
        case .keyNotFound(let key, let context):
            return "No value for key '\(key.stringValue)'\(Self.at(context.codingPath))."
        case .valueNotFound(let type, let context):
            return "Expected a value of type \(type) but found null\(Self.at(context.codingPath))."
        case .typeMismatch(let type, let context):
            return "Expected a value of type \(type)\(Self.at(context.codingPath)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "The data is not valid\(Self.at(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return String(describing: self)
        }
    }

    static func at(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "" : " at '\(CodingPath.string(path))'"
    }
}

extension EncodingError {
    /// `"Cannot encode 'NaN' at 'price'."` and the like.
    var readableMessage: String {
        switch self {
        case .invalidValue(let value, let context):
            return "Cannot encode '\(value)'\(DecodingError.at(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return String(describing: self)
        }
    }
}

/// Spelling of coding paths as people write them: `items[2].title`.
public enum CodingPath {
    /// Joins coding keys into `"a.b[2].c"`: integer keys become subscripts.
    public static func string(_ path: [any CodingKey]) -> String {
        var result = ""
        for key in path {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                if !result.isEmpty { result += "." }
                result += key.stringValue
            }
        }
        return result
    }
}
