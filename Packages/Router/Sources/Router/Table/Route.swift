/// A registered route as a debug screen or generated docs list it.
public struct Route: Sendable, Hashable, CustomStringConvertible {
    /// A number unique within its table, in registration order.
    public let id: Int
    /// The pattern as registered, group prefix included: `"/notes/:id(int)"`.
    public let pattern: String
    /// The name reverse routing knows it by.
    public let name: String?
    /// The URL scheme the route is limited to (lower case), if any.
    public let scheme: String?
    /// The URL host the route is limited to (lower case), if any.
    public let host: String?
    /// The names of its parameters in order, a named catch-all included.
    public let parameterNames: [String]
    /// Whether the route builds a destination for a ``Navigator`` rather than running a handler.
    public let hasDestination: Bool
    /// What its parameters may contain beyond an ordinary segment; empty unless the route opted in.
    public let allowance: ParameterAllowance

    /// `"myapp://example.com/notes/:id (note)"`-style summary.
    public var description: String {
        var text = ""
        if let scheme { text += scheme + "://" }
        if let host { text += (scheme == nil ? "//" : "") + host }
        text += pattern
        if let name { text += " (\(name))" }
        return text
    }

    /// How specific the route's scheme/host limits are; more specific routes are tried first.
    var constraintRank: Int { (host == nil ? 0 : 2) + (scheme == nil ? 0 : 1) }

    /// Whether a URL's scheme and host satisfy the route's limits.
    func accepts(scheme urlScheme: String?, host urlHost: String?) -> Bool {
        (scheme == nil || scheme == urlScheme) && (host == nil || host == urlHost)
    }
}
