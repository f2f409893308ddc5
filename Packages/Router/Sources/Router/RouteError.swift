import Errors

/// Everything that can go wrong when registering, matching or reversing a route.
///
/// Each case carries the pattern or path at fault and, for patterns, the character offset of
/// the problem, so the message points at what to fix.
public enum RouteError: AppError, Equatable {
    /// A pattern could not be parsed; `position` is the offset of the offending character.
    case malformedPattern(pattern: String, position: Int, problem: PatternProblem)
    /// A pattern has the same shape (and scheme and host) as a registered one.
    case conflict(pattern: String, existing: String)
    /// A path or URL cannot be matched at all: it is malformed or over a limit.
    case invalidPath(path: String, problem: PathProblem)
    /// No route matched, or every matching route declined; `nearest` is the route that got furthest.
    case noMatch(path: String, nearest: String?)
    /// A route with this name is already registered (with pattern `existing`).
    case duplicateRouteName(name: String, existing: String)
    /// No route has this name.
    case unknownRouteName(String)
    /// Reverse routing was not given a value for one of the route's parameters.
    case missingParameter(route: String, name: String)
    /// Reverse routing was given a value that the parameter's constraint rejects, or an empty one.
    case invalidParameter(route: String, name: String, value: String)
    /// A navigator was handed a destination of a type it cannot show.
    case unexpectedDestination(expected: String, received: String)

    /// What went wrong and where, in words a developer can act on.
    public var message: String {
        switch self {
        case .malformedPattern(let pattern, let position, let problem):
            "Malformed route pattern \"\(pattern)\" at position \(position): \(problem.description)."
        case .conflict(let pattern, let existing):
            "Route pattern \"\(pattern)\" conflicts with the registered \"\(existing)\" (same shape); "
                + "pass replacing: true to replace it."
        case .invalidPath(let path, let problem):
            "Cannot route \"\(Self.abbreviated(path))\": \(problem.description)."
        case .noMatch(let path, let nearest?):
            "No route matches \"\(Self.abbreviated(path))\"; the nearest candidate is \"\(nearest)\"."
        case .noMatch(let path, nil):
            "No route matches \"\(Self.abbreviated(path))\"."
        case .duplicateRouteName(let name, let existing):
            "A route named \"\(name)\" is already registered (\"\(existing)\"); pass replacing: true to replace it."
        case .unknownRouteName(let name):
            "No route is named \"\(name)\"."
        case .missingParameter(let route, let name):
            "Route \"\(route)\" needs a value for parameter \"\(name)\"."
        case .invalidParameter(let route, let name, let value):
            "Value \"\(Self.abbreviated(value))\" is not valid for parameter \"\(name)\" of route \"\(route)\"."
        case .unexpectedDestination(let expected, let received):
            "The navigator shows \(expected) destinations but was handed a \(received)."
        }
    }

    /// Long inputs (a 1 MB path) are cut in messages so logs stay readable.
    static func abbreviated(_ text: String) -> String {
        text.utf8.count <= 200 ? text : String(text.prefix(200)) + "…"
    }
}

/// Why a route pattern is malformed.
public enum PatternProblem: Sendable, Equatable, CustomStringConvertible {
    /// The pattern does not start with `/`.
    case notAbsolute
    /// `//` inside the pattern: an empty segment can never match.
    case emptySegment
    /// `:` with no name after it.
    case emptyName
    /// A parameter name used twice in one pattern.
    case duplicateName(String)
    /// `**` followed by more segments.
    case catchAllNotLast
    /// A `(constraint)` that is not one of the known ones.
    case unknownConstraint(String)
    /// A character that has another meaning in a pattern segment (`?`, `#`, `*`, `:`, `(`, `)`, NUL).
    case invalidCharacter(Character)
    /// A `.` or `..` segment, which a path can never contain.
    case dotSegment
    /// A `%` not followed by two hex digits, or an escape that does not decode to UTF-8 text.
    case invalidPercentEscape

    /// The problem in words.
    public var description: String {
        switch self {
        case .notAbsolute: "a pattern must start with \"/\""
        case .emptySegment: "empty segment (\"//\")"
        case .emptyName: "parameter without a name"
        case .duplicateName(let name): "parameter name \"\(name)\" is used twice"
        case .catchAllNotLast: "\"**\" must be the last segment"
        case .unknownConstraint(let name):
            "unknown constraint \"\(name)\" (known: \(ParameterConstraint.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .invalidCharacter(let character):
            "character \"\(character.debugDescription.dropFirst().dropLast())\" is not allowed here"
        case .dotSegment: "\".\" and \"..\" segments are not allowed"
        case .invalidPercentEscape: "invalid percent-escape"
        }
    }
}

/// Why a path or URL cannot be routed.
public enum PathProblem: Sendable, Equatable, CustomStringConvertible {
    /// A `%` not followed by two hex digits, or escapes that do not form UTF-8, in the segment
    /// that starts at this UTF-8 offset of the path (the escape's own offset when it is malformed).
    case invalidPercentEscape(offset: Int)
    /// A NUL byte, raw or as `%00`.
    case nulByte
    /// A raw `.` or `..` segment; paths are never normalised.
    case dotSegment
    /// Longer than the table's ``RouteLimits/maximumLength``.
    case tooLong(limit: Int)
    /// More segments than the table's ``RouteLimits/maximumSegments``.
    case tooManySegments(limit: Int)
    /// Neither an absolute path nor a `scheme://` URL.
    case notAbsolute

    /// The problem in words.
    public var description: String {
        switch self {
        case .invalidPercentEscape(let offset): "invalid percent-escape at byte \(offset) of the path"
        case .nulByte: "it contains a NUL byte"
        case .dotSegment: "it contains a \".\" or \"..\" segment (paths are never normalised)"
        case .tooLong(let limit): "it is longer than \(limit) bytes"
        case .tooManySegments(let limit): "it has more than \(limit) segments"
        case .notAbsolute: "it is neither a path starting with \"/\" nor a URL with a scheme"
        }
    }
}
