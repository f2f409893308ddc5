/// Routes that share a path prefix: `routes.group("/admin").add("/users") { … }` registers
/// `/admin/users`. The prefix may contain parameters; groups nest.
public struct RouteGroup: Sendable {
    /// The table routes are added to.
    public let table: RouteTable
    /// The prefix every route of the group starts with, such as `/admin` or `/teams/:team`.
    public let prefix: String

    init(table: RouteTable, prefix: String) {
        self.table = table
        self.prefix = prefix
    }

    /// Registers a handler for `prefix + pattern`; see ``RouteTable/add(_:name:scheme:host:replacing:allowing:handler:)``.
    /// - Throws: ``RouteError/malformedPattern(pattern:position:problem:)`` or ``RouteError/conflict(pattern:existing:)``.
    @discardableResult
    public func add(
        _ pattern: String, name: String? = nil, scheme: String? = nil, host: String? = nil, replacing: Bool = false,
        allowing allowance: ParameterAllowance = [], handler: @escaping @Sendable (RouteMatch) throws -> Void
    ) throws -> Route {
        try table.add(
            join(pattern), name: name, scheme: scheme, host: host, replacing: replacing, allowing: allowance,
            handler: handler)
    }

    /// Registers a deciding handler for `prefix + pattern`; see ``RouteTable/addDeciding(_:name:scheme:host:replacing:allowing:handler:)``.
    /// - Throws: ``RouteError/malformedPattern(pattern:position:problem:)`` or ``RouteError/conflict(pattern:existing:)``.
    @discardableResult
    public func addDeciding(
        _ pattern: String, name: String? = nil, scheme: String? = nil, host: String? = nil, replacing: Bool = false,
        allowing allowance: ParameterAllowance = [], handler: @escaping @Sendable (RouteMatch) throws -> RouteDecision
    ) throws -> Route {
        try table.addDeciding(
            join(pattern), name: name, scheme: scheme, host: host, replacing: replacing, allowing: allowance,
            handler: handler)
    }

    /// Registers a destination route for `prefix + pattern`; see ``RouteTable/addDestination(_:name:scheme:host:replacing:allowing:presentation:build:)``.
    /// - Throws: ``RouteError/malformedPattern(pattern:position:problem:)`` or ``RouteError/conflict(pattern:existing:)``.
    @discardableResult
    public func addDestination(
        _ pattern: String, name: String? = nil, scheme: String? = nil, host: String? = nil, replacing: Bool = false,
        allowing allowance: ParameterAllowance = [], presentation: Presentation = .push,
        build: @escaping @Sendable (RouteMatch) throws -> (any Sendable)?
    ) throws -> Route {
        try table.addDestination(
            join(pattern), name: name, scheme: scheme, host: host, replacing: replacing, allowing: allowance,
            presentation: presentation,
            build: build)
    }

    /// A nested group: `group("/admin").group("/users")` has the prefix `/admin/users`.
    public func group(_ prefix: String) -> RouteGroup {
        RouteGroup(table: table, prefix: join(prefix))
    }

    /// The prefix and the pattern with exactly one slash between them; `/` alone adds nothing.
    private func join(_ pattern: String) -> String {
        let head = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        if pattern == "/" || pattern.isEmpty { return head.isEmpty ? "/" : head }
        return head + (pattern.hasPrefix("/") ? pattern : "/" + pattern)
    }
}
