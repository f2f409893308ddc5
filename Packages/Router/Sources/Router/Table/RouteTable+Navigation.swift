/// Matching and navigation.
extension RouteTable {
    /// The best match for a path or URL, without running anything; nil if none matches or the
    /// input is malformed.
    ///
    /// A path equal to a route made only of literals is found by one hash lookup, with no heap
    /// allocation.
    public func match(_ url: String) -> RouteMatch? {
        let trie = self.trie
        if let index = trie.staticPaths[url[...]] {
            return RouteMatch(
                route: trie.entries[index].route, url: url, scheme: nil, host: nil, params: [:], catchAll: [],
                query: [:], fragment: nil, data: [:])
        }
        guard let target = try? RequestTarget(url, options: options), let index = trie.firstMatch(target) else {
            return nil
        }
        return trie.entries[index].match(target, data: [:])
    }

    /// The best match for a path or URL, or a typed error saying why there is none.
    /// - Throws: ``RouteError/invalidPath(path:problem:)`` or ``RouteError/noMatch(path:nearest:)``.
    public func resolve(_ url: String) throws(RouteError) -> RouteMatch {
        let trie = self.trie
        let target = try RequestTarget(url, options: options)
        guard let index = trie.firstMatch(target) else { throw noMatch(target, trie: trie) }
        return trie.entries[index].match(target, data: [:])
    }

    /// Whether some route matches a path or URL (handlers are not asked, so one may still decline).
    public func canNavigate(to url: String) -> Bool {
        match(url) != nil
    }

    /// Finds the best match and runs its handler; a handler that declines passes the match to
    /// the next candidate in precedence order.
    ///
    /// Destination routes build their destination and return it in ``RouteMatch/destination``.
    /// - Parameters:
    ///   - url: A path (`/notes/5?sort=asc`) or URL (`myapp://notes/5`, `https://example.com/notes/5`).
    ///   - data: Anything to hand the handler along with the match.
    /// - Returns: The match that was handled.
    /// - Throws: ``RouteError/invalidPath(path:problem:)``, ``RouteError/noMatch(path:nearest:)``
    ///   (also when every candidate declined), or what a handler threw.
    @discardableResult
    public func navigate(to url: String, data: [String: any Sendable] = [:]) throws -> RouteMatch {
        try run(url, data: data) { _, _ in }
    }

    /// Like ``navigate(to:data:)``, and hands a destination route's destination to `navigator`
    /// as the route's ``Presentation`` says.
    /// - Throws: ``RouteError/invalidPath(path:problem:)``, ``RouteError/noMatch(path:nearest:)``,
    ///   or what a handler or the navigator threw.
    @discardableResult
    public func navigate(
        to url: String, data: [String: any Sendable] = [:], using navigator: some Navigator
    ) throws
        -> RouteMatch
    {
        try run(url, data: data) { destination, presentation in
            switch presentation {
            case .push: try navigator.push(destination)
            case .present: try navigator.present(destination)
            case .start: try navigator.start(destination)
            }
        }
    }

    private func run(
        _ url: String, data: [String: any Sendable], show: (any Sendable, Presentation) throws -> Void
    ) throws -> RouteMatch {
        let trie = self.trie
        let target = try RequestTarget(url, options: options)
        var handled: RouteMatch?
        _ = try trie.forEachMatch(target) { index in
            let entry = trie.entries[index]
            var match = entry.match(target, data: data)
            switch entry.action {
            case .handler(let handler):
                guard try handler(match) == .handled else { return false }
            case .destination(let presentation, let build):
                guard let destination = try build(match) else { return false }
                match.destination = destination
                try show(destination, presentation)
            }
            handled = match
            return true
        }
        guard let handled else { throw noMatch(target, trie: trie) }
        return handled
    }

    private func noMatch(_ target: RequestTarget, trie: RouteTrie) -> RouteError {
        .noMatch(path: target.input, nearest: trie.nearest(target).map { trie.entries[$0].route.pattern })
    }
}
