/// How a ``RouteTable`` compares and bounds what it matches.
public struct RouteOptions: Sendable, Equatable {
    /// Whether literal segments match regardless of case. Parameters keep the case they arrived in.
    public var caseInsensitive: Bool
    /// Schemes whose URLs have a host (`https://example.com/notes/5` matches `/notes/5`). For any
    /// other scheme the authority is the first path segment: `myapp://notes/5` matches `/notes/5`.
    public var hostSchemes: Set<String>
    /// Bounds on the paths the table accepts.
    public var limits: RouteLimits

    /// Options with case-sensitive literals, `http`/`https` as host schemes and default limits.
    public init(
        caseInsensitive: Bool = false, hostSchemes: Set<String> = ["http", "https"], limits: RouteLimits = RouteLimits()
    ) {
        self.caseInsensitive = caseInsensitive
        self.hostSchemes = hostSchemes
        self.limits = limits
    }
}

/// Bounds on what a table matches: beyond them, navigation throws instead of working.
public struct RouteLimits: Sendable, Equatable {
    /// The longest path or URL accepted, in UTF-8 bytes; 64 KiB by default.
    public var maximumLength: Int
    /// The most segments a path may have; 1 024 by default.
    public var maximumSegments: Int

    /// Limits of `maximumLength` bytes and `maximumSegments` segments.
    public init(maximumLength: Int = 65_536, maximumSegments: Int = 1_024) {
        self.maximumLength = maximumLength
        self.maximumSegments = maximumSegments
    }
}
