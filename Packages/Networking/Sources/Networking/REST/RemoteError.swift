import Errors
import Foundation

/// What can go wrong syncing models with a server.
public enum RemoteError: AppError {
    /// The server refused the model with 422 and said which fields were wrong.
    case validationFailed(FieldErrors, request: String)
    /// A URL template names a parameter that was not given.
    case missingParameter(String, template: String)
    /// The model has no id yet, so it has no URL to update or destroy.
    case missingID(path: String)
    /// A value (an id, or another template parameter) cannot be one path segment: it is empty,
    /// `.` or `..`, or holds `/` or a control character. Nothing was sent.
    case invalidSegment(String, parameter: String, template: String, problem: SegmentProblem)

    /// What went wrong, naming the fields, the parameter or the path.
    public var message: String {
        switch self {
        case .validationFailed(let errors, let request):
            "\(request) was refused: \(errors)."
        case .missingParameter(let name, let template):
            "The URL template \"\(template)\" needs a value for \":\(name)\"."
        case .missingID(let path):
            "The model at \"\(path)\" has no id yet; save it before updating or destroying it."
        case .invalidSegment(let value, let parameter, let template, let problem):
            "The value \(value.debugDescription) for \":\(parameter)\" in the URL template \"\(template)\" "
                + "cannot be a path segment: \(problem)."
        }
    }

    /// The field errors of a ``validationFailed(_:request:)`` error.
    public var fieldErrors: FieldErrors? {
        if case .validationFailed(let errors, _) = self { return errors }
        return nil
    }
}

/// The messages a server gave per field when it refused a model (HTTP 422).
///
/// Reads the common shapes: `{"errors": {"text": ["is blank"]}}` (Rails, Laravel),
/// `{"errors": [{"field": "text", "message": "is blank"}]}`, and a bare
/// `{"text": ["is blank"]}` or `{"text": "is blank"}`.
public struct FieldErrors: Sendable, Equatable, CustomStringConvertible {
    /// The messages for each field.
    public var fields: [String: [String]]

    /// Field errors from a dictionary.
    public init(_ fields: [String: [String]]) {
        self.fields = fields
    }

    /// The messages for `field`, empty when it had none.
    public subscript(field: String) -> [String] {
        fields[field] ?? []
    }

    /// `text: is blank; title: is too long`, fields sorted.
    public var description: String {
        fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.joined(separator: ", "))" }
            .joined(separator: "; ")
    }

    /// Parses a 422 body; an unreadable body gives one `base` error with its text.
    public init(body: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: body) else {
            let text = String(decoding: body.prefix(500), as: UTF8.self)
            self.init(text.isEmpty ? [:] : ["base": [text]])
            return
        }
        var fields: [String: [String]] = [:]
        let root = (object as? [String: Any]).map { $0["errors"] ?? $0 } ?? object
        if let map = root as? [String: Any] {
            for (key, value) in map where key != "message" || map.count == 1 {
                fields[key] = Self.messages(value)
            }
        } else if let list = root as? [Any] {
            for case let item as [String: Any] in list {
                let field = (item["field"] ?? item["name"] ?? item["path"]) as? String ?? "base"
                let message = (item["message"] ?? item["detail"] ?? item["error"]) as? String ?? "is invalid"
                fields[field, default: []].append(message)
            }
        }
        self.init(fields)
    }

    private static func messages(_ value: Any) -> [String] {
        if let text = value as? String { return [text] }
        if let list = value as? [Any] { return list.map { ($0 as? String) ?? "\($0)" } }
        return ["\(value)"]
    }
}
