/// What a route does when it is the chosen candidate.
enum RouteAction: Sendable {
    /// Runs a handler, which may decline so that the next candidate runs.
    case handler(@Sendable (RouteMatch) throws -> RouteDecision)
    /// Builds a destination for a ``Navigator``; nil declines.
    case destination(Presentation, @Sendable (RouteMatch) throws -> (any Sendable)?)
}

/// What a deciding handler did with a match.
public enum RouteDecision: Sendable, Equatable {
    /// The handler took the match; navigation stops here.
    case handled
    /// The handler passed; the next candidate in precedence order is tried.
    case declined
}

/// A registered route with its parsed pattern and its action.
struct RouteEntry: Sendable {
    let route: Route
    let pattern: RoutePattern
    let action: RouteAction
    /// Each captured parameter's name and segment index, worked out once.
    private let captures: [(name: String, index: Int)]
    /// The index of the `**` segment and its name, if the pattern ends in one.
    private let catchAll: (index: Int, name: String?)?
    /// The segment indices whose values the route's allowance must admit: its parameters, and
    /// from `guardedRest` on, the segments of a named catch-all. Empty when nothing is checked.
    private let guardedIndices: [Int]
    private let guardedRest: Int?

    init(route: Route, pattern: RoutePattern, action: RouteAction) {
        self.route = route
        self.pattern = pattern
        self.action = action
        var captures: [(name: String, index: Int)] = []
        var catchAll: (index: Int, name: String?)?
        for (index, segment) in pattern.segments.enumerated() {
            switch segment {
            case .parameter(let name, _): captures.append((name, index))
            case .catchAll(let name): catchAll = (index, name)
            case .literal, .wildcard: continue
            }
        }
        self.captures = captures
        self.catchAll = catchAll
        let allowance = route.allowance
        self.guardedIndices = allowance == .all ? [] : captures.map(\.index)
        self.guardedRest = allowance == .all ? nil : catchAll.flatMap { $0.name == nil ? nil : $0.index }
    }

    /// Whether the decoded segments of a path this pattern matched hold only what the route's
    /// allowance lets its parameters hold (see ``ParameterAllowance``).
    func admits(_ segments: UnsafeBufferPointer<Substring>) -> Bool {
        let allowance = route.allowance
        for index in guardedIndices where !allowance.admits(segments[index]) { return false }
        if let guardedRest, guardedRest < segments.count {
            for index in guardedRest..<segments.count where !allowance.admits(segments[index]) { return false }
        }
        return true
    }

    /// Two entries conflict when their keys are equal.
    var conflictKey: ConflictKey { ConflictKey(shape: pattern.shape, scheme: route.scheme, host: route.host) }

    /// Pattern shape plus scheme/host limits.
    struct ConflictKey: Hashable {
        let shape: [PatternSegment]
        let scheme: String?
        let host: String?
    }

    /// Builds the match for a target this entry's pattern matched.
    func match(_ target: RequestTarget, data: [String: any Sendable]) -> RouteMatch {
        var params: [String: String] =
            captures.isEmpty && catchAll?.name == nil ? [:] : Dictionary(minimumCapacity: captures.count + 1)
        var rest: [String] = []
        for capture in captures {
            params[capture.name] = String(target.segments[capture.index])
        }
        if let catchAll {
            let segments = target.segments[catchAll.index...]
            rest = segments.map(String.init)
            // A joined value could not tell a `/` or `..` inside a segment from a separator or a
            // traversal: a route that let one through gives only the exact segments.
            if let name = catchAll.name,
                !target.hasDecodedUnsafeSegment || segments.allSatisfy(ParameterAllowance().admits)
            {
                params[name] = rest.joined(separator: "/")
            }
        }
        return RouteMatch(
            route: route, url: target.input, scheme: target.scheme, host: target.host, params: params,
            catchAll: rest, query: target.query.map(Self.parseQuery) ?? [:], fragment: target.fragment.map(String.init),
            data: data)
    }

    /// `a=1&b=two+words`: items split on `&`, names and values percent-decoded with `+` as space.
    /// An item that does not decode is kept as written.
    static func parseQuery(_ query: Substring) -> [String: String] {
        var items: [String: String] = [:]
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = parts[0]
            let rawValue = parts.count > 1 ? parts[1] : ""
            let name = PercentCoding.decode(rawName, plusIsSpace: true) ?? String(rawName)
            let value = PercentCoding.decode(rawValue, plusIsSpace: true) ?? String(rawValue)
            if items[name] == nil { items[name] = value }
        }
        return items
    }
}
