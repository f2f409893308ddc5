/// The compiled, immutable form of a table's routes: a segment trie searched depth-first with
/// full backtracking, plus a hash of fully static paths.
///
/// Every trie node sits at a fixed depth, so one search visits each node at most once: the cost
/// is bounded by the number of nodes, never exponential, however much backtracking happens.
final class RouteTrie: Sendable {
    struct Node: Sendable {
        var literals: [Substring: Int] = [:]
        var parameters: [Edge] = []
        var wildcard: Int?
        var terminals: [Int] = []
        var catchAlls: [Int] = []
    }

    struct Edge: Sendable {
        let constraint: ParameterConstraint
        let child: Int
    }

    let nodes: [Node]
    let entries: [RouteEntry]
    /// Bare paths of routes made only of plain literals, to their entry: a hit is always the
    /// best candidate, because a literal beats everything at every segment.
    let staticPaths: [Substring: Int]

    init(entries: [RouteEntry], caseInsensitive: Bool) {
        var nodes = [Node()]
        var staticPaths: [Substring: Int] = [:]
        for (index, entry) in entries.enumerated() {
            var current = 0
            var isPlain = entry.route.scheme == nil && entry.route.host == nil && !caseInsensitive
            var key = ""
            for segment in entry.pattern.segments {
                switch segment {
                case .literal(let text):
                    key += "/" + text
                    if text.utf8.contains(where: { $0 == 37 || $0 == 47 || $0 == 63 || $0 == 35 }) { isPlain = false }
                    if let child = nodes[current].literals[text[...]] {
                        current = child
                    } else {
                        nodes.append(Node())
                        nodes[current].literals[text[...]] = nodes.count - 1
                        current = nodes.count - 1
                    }
                case .parameter(_, let constraint):
                    isPlain = false
                    if let edge = nodes[current].parameters.first(where: { $0.constraint == constraint }) {
                        current = edge.child
                    } else {
                        nodes.append(Node())
                        nodes[current].parameters.append(Edge(constraint: constraint, child: nodes.count - 1))
                        nodes[current].parameters.sort { $0.constraint < $1.constraint }
                        current = nodes.count - 1
                    }
                case .wildcard:
                    isPlain = false
                    if let child = nodes[current].wildcard {
                        current = child
                    } else {
                        nodes.append(Node())
                        nodes[current].wildcard = nodes.count - 1
                        current = nodes.count - 1
                    }
                case .catchAll:
                    isPlain = false
                }
            }
            if case .catchAll = entry.pattern.segments.last {
                nodes[current].catchAlls.append(index)
            } else {
                nodes[current].terminals.append(index)
            }
            if isPlain { staticPaths[(key.isEmpty ? "/" : key)[...]] = index }
        }
        // Among routes of one shape, the more specific scheme/host limits go first.
        let order: (Int, Int) -> Bool = { left, right in
            let (a, b) = (entries[left].route, entries[right].route)
            return a.constraintRank != b.constraintRank ? a.constraintRank > b.constraintRank : a.id < b.id
        }
        for index in nodes.indices {
            nodes[index].terminals.sort(by: order)
            nodes[index].catchAlls.sort(by: order)
        }
        self.nodes = nodes
        self.entries = entries
        self.staticPaths = staticPaths
    }

    /// Calls `body` with each matching entry in precedence order until it returns true.
    /// - Returns: whether `body` returned true.
    func forEachMatch(_ target: RequestTarget, _ body: (Int) throws -> Bool) rethrows -> Bool {
        guard target.isMatchable else { return false }
        return try nodes.withUnsafeBufferPointer { nodes in
            try entries.withUnsafeBufferPointer { entries in
                try target.segments.withUnsafeBufferPointer { segments in
                    try target.foldedSegments.withUnsafeBufferPointer { folded in
                        var search = Search(
                            nodes: nodes, entries: entries, segments: segments, folded: folded, scheme: target.scheme,
                            host: target.host, checksAllowance: target.hasDecodedUnsafeSegment)
                        return try search.visit(0, depth: 0, body)
                    }
                }
            }
        }
    }

    /// The best matching entry, if any.
    func firstMatch(_ target: RequestTarget) -> Int? {
        var found: Int?
        _ = forEachMatch(target) { index in
            found = index
            return true
        }
        return found
    }

    /// One depth-first search over borrowed storage (no copies of nodes or segments).
    private struct Search {
        let nodes: UnsafeBufferPointer<Node>
        let entries: UnsafeBufferPointer<RouteEntry>
        let segments: UnsafeBufferPointer<Substring>
        let folded: UnsafeBufferPointer<Substring>
        let scheme: String?
        let host: String?
        /// Whether a segment decoded to something a parameter holds only when its route allows it.
        let checksAllowance: Bool

        func accepts(_ entry: Int) -> Bool {
            let route = entries[entry].route
            return (route.scheme == nil || route.scheme == scheme) && (route.host == nil || route.host == host)
                && (!checksAllowance || entries[entry].admits(segments))
        }

        mutating func visit(_ node: Int, depth: Int, _ body: (Int) throws -> Bool) rethrows -> Bool {
            if depth == segments.count {
                for entry in nodes[node].terminals where accepts(entry) {
                    if try body(entry) { return true }
                }
            } else {
                if let child = nodes[node].literals[folded[depth]] {
                    if try visit(child, depth: depth + 1, body) { return true }
                }
                if !nodes[node].parameters.isEmpty {
                    let segment = segments[depth]
                    for edge in nodes[node].parameters where edge.constraint.accepts(segment) {
                        if try visit(edge.child, depth: depth + 1, body) { return true }
                    }
                }
                if let child = nodes[node].wildcard {
                    if try visit(child, depth: depth + 1, body) { return true }
                }
            }
            for entry in nodes[node].catchAlls where accepts(entry) {
                if try body(entry) { return true }
            }
            return false
        }
    }

    /// The route that got furthest along the path, ignoring constraints, for ``RouteError/noMatch(path:nearest:)``.
    func nearest(_ target: RequestTarget) -> Int? {
        var best: (depth: Int, node: Int) = (0, 0)
        func walk(_ nodeIndex: Int, depth: Int) {
            if depth > best.depth { best = (depth, nodeIndex) }
            guard depth < target.segments.count, !target.segments[depth].isEmpty else { return }
            let node = nodes[nodeIndex]
            if let child = node.literals[target.foldedSegments[depth]] { walk(child, depth: depth + 1) }
            // Constraints are ignored here: a route whose constraint failed is a near candidate.
            for edge in node.parameters { walk(edge.child, depth: depth + 1) }
            if let child = node.wildcard { walk(child, depth: depth + 1) }
        }
        walk(0, depth: 0)
        // A path whose first segment matches nothing has no near candidate.
        return best.depth == 0 ? nil : firstRoute(under: best.node)
    }

    /// The first route in precedence order at or below a node.
    private func firstRoute(under nodeIndex: Int) -> Int? {
        let node = nodes[nodeIndex]
        if let entry = node.terminals.first ?? node.catchAlls.first { return entry }
        let children =
            node.literals.sorted { $0.key < $1.key }.map(\.value) + node.parameters.map(\.child)
            + (node.wildcard.map { [$0] } ?? [])
        for child in children {
            if let entry = firstRoute(under: child) { return entry }
        }
        return nil
    }
}
