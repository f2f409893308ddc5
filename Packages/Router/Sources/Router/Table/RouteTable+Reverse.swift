/// Reverse routing: from a route's name and parameters back to a path.
extension RouteTable {
    /// Builds the path of a named route, percent-encoding each parameter value.
    ///
    /// A catch-all's value is split on `/` and each piece encoded, so `"a/b c"` becomes `a/b%20c`.
    /// An unnamed `*` or `**` cannot be filled in: give the route named parameters instead.
    /// A value the route itself would not match is refused: `.`, `..` or one holding `/` for a
    /// parameter, a `.` or `..` piece for a catch-all, unless the route's
    /// ``Route/allowance`` lets it through (then `.` and `..` are written `%2E` and `%2E%2E`).
    /// - Parameters:
    ///   - name: The route's name.
    ///   - params: A value for each of the route's parameters; extra values are ignored.
    /// - Returns: The path, such as `/notes/7`.
    /// - Throws: ``RouteError/unknownRouteName(_:)``, ``RouteError/missingParameter(route:name:)`` or
    ///   ``RouteError/invalidParameter(route:name:value:)`` (an empty value, one its constraint rejects,
    ///   or one its allowance does not admit).
    public func url(for name: String, params: [String: String] = [:]) throws(RouteError) -> String {
        guard let entry = entry(named: name) else { throw .unknownRouteName(name) }
        let pattern = entry.route.pattern
        var pieces: [String] = []
        for segment in entry.pattern.segments {
            switch segment {
            case .literal(let text):
                pieces.append(PercentCoding.encodeSegment(text))
            case .parameter(let parameter, let constraint):
                guard let value = params[parameter] else { throw .missingParameter(route: pattern, name: parameter) }
                guard !value.isEmpty, constraint.accepts(value[...]), entry.route.allowance.admits(value[...]) else {
                    throw .invalidParameter(route: pattern, name: parameter, value: value)
                }
                pieces.append(Self.encode(value))
            case .wildcard:
                throw .missingParameter(route: pattern, name: "*")
            case .catchAll(nil):
                throw .missingParameter(route: pattern, name: "**")
            case .catchAll(let parameter?):
                guard let value = params[parameter] else { throw .missingParameter(route: pattern, name: parameter) }
                let parts = value.split(separator: "/", omittingEmptySubsequences: false)
                guard value.isEmpty || !parts.contains(where: { $0.isEmpty || !entry.route.allowance.admits($0) })
                else {
                    throw .invalidParameter(route: pattern, name: parameter, value: value)
                }
                if !value.isEmpty { pieces += parts.map { Self.encode(String($0)) } }
            }
        }
        return "/" + pieces.joined(separator: "/")
    }

    /// Encodes a value as one segment; `.` and `..` are escaped so they never read as dot segments.
    private static func encode(_ value: String) -> String {
        switch value {
        case ".": "%2E"
        case "..": "%2E%2E"
        default: PercentCoding.encodeSegment(value)
        }
    }
}
