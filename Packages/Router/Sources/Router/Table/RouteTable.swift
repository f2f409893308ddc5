import Foundation

/// The routes of an app: patterns mapped to handlers or destinations, matched with
/// deterministic precedence and full backtracking.
///
/// ```swift
/// let routes = RouteTable()
/// try routes.add("/notes/:id(int)", name: "note") { match in show(note: match.int("id")!) }
/// try routes.navigate(to: "myapp://notes/5")
/// ```
///
/// A table is safe to use from any thread. Handlers run on the caller's thread, outside the
/// table's lock, so they may navigate or register routes themselves.
public final class RouteTable: @unchecked Sendable {
    /// How the table compares and bounds paths.
    public let options: RouteOptions

    private let lock = NSLock()
    // Guarded by `lock`.
    private var entries: [RouteEntry] = []
    private var keys: [RouteEntry.ConflictKey: Int] = [:]
    private var compiled: RouteTrie?
    private var nextID = 0

    /// Creates an empty table.
    public init(options: RouteOptions = RouteOptions()) {
        self.options = options
    }

    /// Registers a handler for a pattern.
    ///
    /// - Parameters:
    ///   - pattern: `/notes/:id`, `/users/:id(int)`, `/files/**path`; see "Pattern syntax and precedence".
    ///   - name: The name ``url(for:params:)`` builds paths by.
    ///   - scheme: Only URLs with this scheme match (bare paths then do not).
    ///   - host: Only URLs with this host match (bare paths then do not).
    ///   - replacing: Replace a route of the same shape instead of throwing ``RouteError/conflict(pattern:existing:)``.
    ///   - allowance: What its parameters may decode to beyond an ordinary segment (`..`, `/`);
    ///     by default such a path does not match this route. See ``ParameterAllowance``.
    ///   - handler: Runs when navigation picks this route.
    /// - Returns: The registered route.
    /// - Throws: ``RouteError/malformedPattern(pattern:position:problem:)`` or ``RouteError/conflict(pattern:existing:)``.
    @discardableResult
    public func add(
        _ pattern: String, name: String? = nil, scheme: String? = nil, host: String? = nil, replacing: Bool = false,
        allowing allowance: ParameterAllowance = [], handler: @escaping @Sendable (RouteMatch) throws -> Void
    ) throws -> Route {
        try register(
            pattern, name: name, scheme: scheme, host: host, replacing: replacing, allowance: allowance,
            destination: false
        ) {
            .handler { match in
                try handler(match)
                return .handled
            }
        }
    }

    /// Registers a handler that may decline a match, so the next candidate in precedence order runs.
    ///
    /// ```swift
    /// try routes.addDeciding("/users/:name") { match in
    ///     isKnown(match.params["name"]!) ? .handled : .declined
    /// }
    /// ```
    ///
    /// It has a name of its own, not an `add` overload, so that an ordinary handler written as
    /// a trailing closure is never ambiguous, whatever its body.
    ///
    /// - Parameters:
    ///   - pattern: `/notes/:id`, `/users/:id(int)`, `/files/**path`; see "Pattern syntax and precedence".
    ///   - name: The name ``url(for:params:)`` builds paths by.
    ///   - scheme: Only URLs with this scheme match (bare paths then do not).
    ///   - host: Only URLs with this host match (bare paths then do not).
    ///   - replacing: Replace a route of the same shape instead of throwing ``RouteError/conflict(pattern:existing:)``.
    ///   - allowance: What its parameters may decode to beyond an ordinary segment (`..`, `/`);
    ///     by default such a path does not match this route. See ``ParameterAllowance``.
    ///   - handler: Decides, when navigation reaches this route, whether it handles the match or declines it.
    /// - Returns: The registered route.
    /// - Throws: ``RouteError/malformedPattern(pattern:position:problem:)`` or ``RouteError/conflict(pattern:existing:)``.
    @discardableResult
    public func addDeciding(
        _ pattern: String, name: String? = nil, scheme: String? = nil, host: String? = nil, replacing: Bool = false,
        allowing allowance: ParameterAllowance = [], handler: @escaping @Sendable (RouteMatch) throws -> RouteDecision
    ) throws -> Route {
        try register(
            pattern, name: name, scheme: scheme, host: host, replacing: replacing, allowance: allowance,
            destination: false
        ) {
            .handler(handler)
        }
    }

    /// Registers a route that builds a destination value for a ``Navigator`` (a screen, a view
    /// model, an enum case); returning nil declines the match.
    ///
    /// - Parameters:
    ///   - pattern: `/notes/:id`, `/users/:id(int)`, `/files/**path`; see "Pattern syntax and precedence".
    ///   - name: The name ``url(for:params:)`` builds paths by.
    ///   - scheme: Only URLs with this scheme match (bare paths then do not).
    ///   - host: Only URLs with this host match (bare paths then do not).
    ///   - replacing: Replace a route of the same shape instead of throwing ``RouteError/conflict(pattern:existing:)``.
    ///   - allowance: What its parameters may decode to beyond an ordinary segment (`..`, `/`);
    ///     by default such a path does not match this route. See ``ParameterAllowance``.
    ///   - presentation: How ``navigate(to:data:using:)`` hands the destination to the navigator.
    ///   - build: Builds the destination from the match; nil declines it.
    /// - Returns: The registered route.
    /// - Throws: ``RouteError/malformedPattern(pattern:position:problem:)`` or ``RouteError/conflict(pattern:existing:)``.
    @discardableResult
    public func addDestination(
        _ pattern: String, name: String? = nil, scheme: String? = nil, host: String? = nil, replacing: Bool = false,
        allowing allowance: ParameterAllowance = [], presentation: Presentation = .push,
        build: @escaping @Sendable (RouteMatch) throws -> (any Sendable)?
    ) throws -> Route {
        try register(
            pattern, name: name, scheme: scheme, host: host, replacing: replacing, allowance: allowance,
            destination: true
        ) {
            .destination(presentation, build)
        }
    }

    /// Removes the route(s) registered with a pattern of this shape and these limits.
    /// - Parameters:
    ///   - pattern: A pattern of the same shape as the registered one (parameter names may differ).
    ///   - scheme: The scheme the route was registered with, if any.
    ///   - host: The host the route was registered with, if any.
    /// - Returns: Whether a route was removed; false also for a malformed pattern.
    @discardableResult
    public func remove(_ pattern: String, scheme: String? = nil, host: String? = nil) -> Bool {
        guard let parsed = try? RoutePattern(pattern, caseInsensitive: options.caseInsensitive) else { return false }
        let key = RouteEntry.ConflictKey(shape: parsed.shape, scheme: scheme?.lowercased(), host: host?.lowercased())
        return withLock {
            guard let index = keys[key] else { return false }
            removeEntry(at: index)
            return true
        }
    }

    /// Removes the route with this name.
    /// - Returns: Whether a route was removed.
    @discardableResult
    public func remove(named name: String) -> Bool {
        withLock {
            guard let index = entries.firstIndex(where: { $0.route.name == name }) else { return false }
            removeEntry(at: index)
            return true
        }
    }

    /// Every registered route, in registration order.
    public var routes: [Route] {
        withLock { entries.map(\.route) }
    }

    /// A group whose routes share a path prefix (which may contain parameters).
    public func group(_ prefix: String) -> RouteGroup {
        RouteGroup(table: self, prefix: prefix)
    }

    // MARK: - Internals

    func register(
        _ pattern: String, name: String?, scheme: String?, host: String?, replacing: Bool,
        allowance: ParameterAllowance, destination: Bool, action: () -> RouteAction
    ) throws(RouteError) -> Route {
        let parsed = try RoutePattern(pattern, caseInsensitive: options.caseInsensitive)
        return try withLock { () throws(RouteError) -> Route in
            let route = Route(
                id: nextID, pattern: pattern, name: name, scheme: scheme?.lowercased(), host: host?.lowercased(),
                parameterNames: parsed.parameterNames, hasDestination: destination, allowance: allowance)
            let entry = RouteEntry(route: route, pattern: parsed, action: action())
            if let existing = keys[entry.conflictKey] {
                guard replacing else { throw .conflict(pattern: pattern, existing: entries[existing].route.pattern) }
                removeEntry(at: existing)
            }
            if let name, let existing = entries.firstIndex(where: { $0.route.name == name }) {
                guard replacing else {
                    throw .duplicateRouteName(name: name, existing: entries[existing].route.pattern)
                }
                removeEntry(at: existing)
            }
            nextID += 1
            keys[entry.conflictKey] = entries.count
            entries.append(entry)
            compiled = nil
            return route
        }
    }

    /// The compiled trie, rebuilt after changes on first use.
    var trie: RouteTrie {
        withLock {
            if let compiled { return compiled }
            let built = RouteTrie(entries: entries, caseInsensitive: options.caseInsensitive)
            compiled = built
            return built
        }
    }

    /// The entry with this name.
    func entry(named name: String) -> RouteEntry? {
        withLock { entries.first { $0.route.name == name } }
    }

    private func removeEntry(at index: Int) {
        entries.remove(at: index)
        keys = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($0.element.conflictKey, $0.offset) })
        compiled = nil
    }

    private func withLock<Result>(_ body: () throws(RouteError) -> Result) throws(RouteError) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private func withLock<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
