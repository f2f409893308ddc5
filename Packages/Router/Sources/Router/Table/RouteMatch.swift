import Foundation

/// A path or URL matched to a route: the route, its parameters, the query and the caller's data.
public struct RouteMatch: Sendable {
    /// The route that matched.
    public let route: Route
    /// The path or URL as navigated to.
    public let url: String
    /// The URL's scheme (lower case), or nil for a bare path.
    public let scheme: String?
    /// The URL's host (lower case), or nil for a bare path or a scheme without hosts.
    public let host: String?
    /// Percent-decoded parameter values by name; a named catch-all maps to the rest joined by `/`.
    public let params: [String: String]
    /// The segments a `**` matched, percent-decoded; empty when the route has no catch-all.
    public let catchAll: [String]
    /// Query items, percent-decoded (`+` as space); the first value wins for repeated names.
    public let query: [String: String]
    /// The fragment after `#`, if any, as written.
    public let fragment: String?
    /// What the caller passed along to `navigate(to:data:)`.
    public var data: [String: any Sendable]
    /// The destination a destination route built, if the route has one.
    public var destination: (any Sendable)?

    init(
        route: Route, url: String, scheme: String?, host: String?, params: [String: String], catchAll: [String],
        query: [String: String], fragment: String?, data: [String: any Sendable]
    ) {
        self.route = route
        self.url = url
        self.scheme = scheme
        self.host = host
        self.params = params
        self.catchAll = catchAll
        self.query = query
        self.fragment = fragment
        self.data = data
    }

    /// The parameter as text, or nil if the route has no such parameter.
    public func string(_ name: String) -> String? {
        params[name]
    }

    /// The parameter as an `Int`, or nil if it is missing or not an integer.
    public func int(_ name: String) -> Int? {
        params[name].flatMap { Int($0) }
    }

    /// The parameter as a `UUID`, or nil if it is missing or not a UUID.
    public func uuid(_ name: String) -> UUID? {
        params[name].flatMap { UUID(uuidString: $0) }
    }

    /// The parameter converted to any `LosslessStringConvertible` type, or nil if that fails.
    ///
    /// ```swift
    /// let amount = match.value("amount", as: Double.self)
    /// ```
    public func value<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type = Value.self) -> Value? {
        params[name].flatMap { Value($0) }
    }
}
