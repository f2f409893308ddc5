/// What a route lets its captured parameters contain beyond an ordinary segment.
///
/// A parameter's value is one percent-decoded segment, so `%2E%2E` arrives as `..` and `%2F`
/// as `/`. Handlers often join such values into file paths or other URLs, where `..` climbs
/// a folder and `/` adds one: by default a route does not match a path whose `:param` decodes
/// to `.` or `..` or holds a `/`, and the next candidate in precedence order is tried instead.
/// A named catch-all (`**path`) obeys the same rule for every segment it takes, so
/// `params["path"]` never holds a dot segment or a slash that was not a separator.
///
/// A route that wants such values opts in when it is registered:
///
/// ```swift
/// try routes.add("/tags/:tag", allowing: .slashes) { match in show(tag: match.params["tag"]!) }  // "/tags/a%2Fb"
/// ```
///
/// With an allowance, a `:param` holds the decoded value as it is. A named catch-all that
/// takes a segment its allowance lets through leaves its name out of ``RouteMatch/params``,
/// since a joined value could not tell such a segment from a separator; read
/// ``RouteMatch/catchAll``, whose segments are exact. An unnamed `**` has no joined value and
/// matches any segments.
public struct ParameterAllowance: OptionSet, Sendable, Hashable {
    /// The bits of the set.
    public let rawValue: Int

    /// A set from its bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// A value that decodes to `.` or `..` (written `%2E` or `%2E%2E`).
    public static let dotSegments = ParameterAllowance(rawValue: 1 << 0)
    /// A value that holds `/` (written `%2F`).
    public static let slashes = ParameterAllowance(rawValue: 1 << 1)
    /// Both: any decoded segment.
    public static let all: ParameterAllowance = [.dotSegments, .slashes]

    /// Whether a decoded segment is one this allowance lets a parameter hold.
    func admits(_ segment: Substring) -> Bool {
        if !contains(.dotSegments), Self.isDotSegment(segment) { return false }
        if !contains(.slashes), segment.utf8.contains(UInt8(ascii: "/")) { return false }
        return true
    }

    /// Whether a segment is `.` or `..`.
    static func isDotSegment(_ segment: Substring) -> Bool {
        let bytes = segment.utf8
        guard bytes.count == 1 || bytes.count == 2 else { return false }
        return bytes.allSatisfy { $0 == UInt8(ascii: ".") }
    }
}
