import Foundation

/// A path with named parameters: `users/:user/notes/:id`.
///
/// Expanding percent-encodes each value as one path segment, so `a/b` cannot add a segment.
/// A leading `/` is dropped: templates are relative to the client's base URL.
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
    /// - Throws: ``RemoteError/missingParameter(_:template:)`` when a value is missing.
    public func expand(_ parameters: [String: String]) throws -> String {
        try segments.map { segment -> String in
            guard segment.hasPrefix(":") else { return String(segment) }
            let name = String(segment.dropFirst())
            guard let value = parameters[name] else {
                throw RemoteError.missingParameter(name, template: template)
            }
            return Self.encodeSegment(value)
        }.joined(separator: "/")
    }

    static func encodeSegment(_ value: String) -> String {
        FormEncoding.escape(value)
    }
}
