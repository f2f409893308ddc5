import Foundation

/// A path with named parameters: `users/:user/notes/:id`.
///
/// Expanding percent-encodes each value as one path segment. A value that could not stand for
/// itself in that segment is refused with ``RemoteError/invalidSegment(_:parameter:template:problem:)``
/// before anything is sent: an empty one (it would address the collection), `.` or `..` (the
/// resource itself or its parent), one holding `/` (many servers and proxies decode `%2F` back
/// into a separator) or a control character. A leading `/` is dropped: templates are relative
/// to the client's base URL.
public struct URLTemplate: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The template as written.
    public let template: String

    /// A template from its text.
    public init(_ template: String) {
        self.template = template
    }

    /// A template from a string literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The template as written.
    public var description: String { template }

    private var segments: [Substring] {
        template.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// The parameter names, in order: `["user", "id"]`.
    public var parameterNames: [String] {
        segments.filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
    }

    /// Whether the template names `parameter`.
    public func contains(_ parameter: String) -> Bool {
        parameterNames.contains(parameter)
    }

    /// The template without its last segment when that segment is `:parameter`.
    func removingTrailing(_ parameter: String) -> URLTemplate {
        guard segments.last == ":\(parameter)" else { return self }
        return URLTemplate(segments.dropLast().joined(separator: "/"))
    }

    /// The path with every parameter replaced by its percent-encoded value.
    ///
    /// - Throws: ``RemoteError/missingParameter(_:template:)`` when a value is missing, and
    ///   ``RemoteError/invalidSegment(_:parameter:template:problem:)`` when one cannot be a segment.
    public func expand(_ parameters: [String: String]) throws -> String {
        try segments.map { segment -> String in
            guard segment.hasPrefix(":") else { return String(segment) }
            let name = String(segment.dropFirst())
            guard let value = parameters[name] else {
                throw RemoteError.missingParameter(name, template: template)
            }
            return try encodeSegment(value, parameter: name)
        }.joined(separator: "/")
    }

    /// `value` percent-encoded as the one segment that fills `:parameter`.
    ///
    /// - Throws: ``RemoteError/invalidSegment(_:parameter:template:problem:)``.
    func encodeSegment(_ value: String, parameter: String) throws -> String {
        if let problem = SegmentProblem(of: value) {
            throw RemoteError.invalidSegment(value, parameter: parameter, template: template, problem: problem)
        }
        return FormEncoding.escape(value)
    }
}

/// Why a value cannot fill a path segment of a ``URLTemplate``.
public enum SegmentProblem: Sendable, Equatable, CustomStringConvertible {
    /// The value is empty: the path would address the collection instead of a member.
    case empty
    /// The value is `.` or `..`: the path would address the resource itself or its parent.
    case dotSegment
    /// The value holds `/`, which servers and proxies may turn back into a separator.
    case slash
    /// The value holds a control character (CR, LF, NUL, DEL and the like).
    case controlCharacter

    /// The problem of `value`, or nil when it makes a good segment.
    init?(of value: String) {
        if value.isEmpty {
            self = .empty
        } else if value == "." || value == ".." {
            self = .dotSegment
        } else if value.utf8.contains(UInt8(ascii: "/")) {
            self = .slash
        } else if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            self = .controlCharacter
        } else {
            return nil
        }
    }

    /// The problem in words.
    public var description: String {
        switch self {
        case .empty: "it is empty, so the path would address the collection"
        case .dotSegment: "\".\" and \"..\" would address the resource itself or its parent"
        case .slash: "it contains \"/\", which would split the segment"
        case .controlCharacter: "it contains a control character"
        }
    }
}
