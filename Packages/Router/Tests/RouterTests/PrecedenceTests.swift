import Testing

@testable import Router

@Suite("Precedence and backtracking")
struct PrecedenceTests {
    /// Route sets with expected winners; each is checked in every registration order.
    static let cases: [(patterns: [String], path: String, expected: String?)] = [
        // literal > parameter > wildcard > catch-all, at one segment
        (["/a/b", "/a/:x", "/a/*", "/a/**"], "/a/b", "/a/b"),
        (["/a/:x", "/a/*", "/a/**"], "/a/b", "/a/:x"),
        (["/a/*", "/a/**"], "/a/b", "/a/*"),
        (["/a/**"], "/a/b", "/a/**"),
        // segment by segment: the first segment decides before later ones
        (["/a/:x/c", "/:y/b/:z"], "/a/b/c", "/a/:x/c"),
        (["/:x/b/c", "/a/:y/:z"], "/a/b/c", "/a/:y/:z"),
        // the backtracking cases
        (["/p/:name", "/p/fixed/x"], "/p/fixed", "/p/:name"),
        (["/a/b/c", "/:x/b/d"], "/a/b/d", "/:x/b/d"),
        // backtracking out of a parameter into a wildcard, and into a catch-all
        (["/a/:x/c", "/a/*/d"], "/a/b/d", "/a/*/d"),
        (["/files/special/x", "/files/**"], "/files/special", "/files/**"),
        (["/files/special/x", "/files/**"], "/files/special/y", "/files/**"),
        // a catch-all at a shallower node loses to any deeper full match, and wins when nothing else does
        (["/**", "/a/:x"], "/a/b", "/a/:x"),
        (["/**", "/a/:x"], "/a/b/c", "/**"),
        (["/**", "/a/:x"], "/", "/**"),
        // typed constraints: int before uuid before double before unconstrained
        (["/users/:id(int)", "/users/:name"], "/users/me", "/users/:name"),
        (["/users/:id(int)", "/users/:name"], "/users/42", "/users/:id(int)"),
        (["/v/:x(double)", "/v/:x(int)"], "/v/5", "/v/:x(int)"),
        (["/v/:x(double)", "/v/:x(int)"], "/v/5.5", "/v/:x(double)"),
        (["/v/:x(uuid)", "/v/:x"], "/v/E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "/v/:x(uuid)"),
        (["/users/:id(int)/posts", "/users/:name/likes"], "/users/42/likes", "/users/:name/likes"),
        (["/users/:id(int)"], "/users/me", nil),
    ]

    @Test("precedence is literal > parameter > wildcard > catch-all, with full backtracking", arguments: cases.indices)
    func precedence(index: Int) throws {
        let (patterns, path, expected) = Self.cases[index]
        #expect(winner(try table(patterns), path) == expected)
        #expect(winner(try table(patterns.reversed()), path) == expected, "registration order must not matter")
    }

    @Test("every permutation of a mixed set picks the same winners")
    func orderIndependence() throws {
        let patterns = ["/a/b/c", "/:x/b/d", "/a/:y/:z", "/a/*/d", "/a/**", "/**"]
        let paths = ["/a/b/c", "/a/b/d", "/a/q/d", "/a/q/z", "/z/b/d", "/a", "/a/b/c/d", "/q"]
        let reference = try table(patterns)
        let expected = paths.map { winner(reference, $0) }
        #expect(expected == ["/a/b/c", "/a/:y/:z", "/a/:y/:z", "/a/:y/:z", "/:x/b/d", "/a/**", "/a/**", "/**"])
        var permutation = patterns
        for _ in 0..<40 {
            permutation.shuffle()
            let routes = try table(permutation)
            #expect(paths.map { winner(routes, $0) } == expected, "order \(permutation)")
        }
    }

    @Test("a handler that declines passes the match to the next candidate")
    func declining() throws {
        let routes = RouteTable()
        let ran = Recorder<String>()
        try routes.addDeciding("/users/:name") { match in
            ran.append("name")
            return match.params["name"] == "admin" ? .handled : .declined
        }
        try routes.add("/users/*") { _ in ran.append("wildcard") }
        try routes.addDeciding("/users/me") { _ in
            ran.append("me")
            return .declined
        }
        #expect(try routes.navigate(to: "/users/me").route.pattern == "/users/*")
        #expect(ran.values == ["me", "name", "wildcard"])
        #expect(try routes.navigate(to: "/users/admin").route.pattern == "/users/:name")
    }

    @Test("an ordinary handler whose body is a statement is never ambiguous with a deciding one")
    func statementHandlers() throws {
        let routes = RouteTable()
        let ran = Recorder<String>()
        try routes.add("/items/:id(int)") { match in
            if let id = match.int("id") { ran.append("item \(id)") }
        }
        _ = try routes.navigate(to: "/items/7")
        #expect(ran.values == ["item 7"])
    }

    @Test("when every candidate declines, navigation throws noMatch naming the nearest route")
    func allDecline() throws {
        let routes = RouteTable()
        try routes.addDeciding("/a/:x") { _ in .declined }
        let error = routeError { try routes.navigate(to: "/a/b") }
        #expect(error == .noMatch(path: "/a/b", nearest: "/a/:x"))
        #expect(routes.canNavigate(to: "/a/b"), "canNavigate does not ask handlers")
    }

    @Test("noMatch names the route that got furthest along the path")
    func nearestCandidate() throws {
        let routes = try table(["/notes/:id/edit", "/settings", "/notes/:id/share/:to"])
        let error = routeError { try routes.navigate(to: "/notes/5/share") }
        #expect(error == .noMatch(path: "/notes/5/share", nearest: "/notes/:id/share/:to"))
        #expect(error?.message.contains("/notes/:id/share/:to") == true)
        #expect(routeError { try routes.navigate(to: "/nothing") } == .noMatch(path: "/nothing", nearest: nil))
        #expect(routeError { try table([]).navigate(to: "/") } == .noMatch(path: "/", nearest: nil))
    }

    @Test("backtracking stays linear: a deep ambiguous table is searched once per node")
    func noExponentialBlowUp() throws {
        // At each of 24 levels a literal and a parameter edge both match and every branch fails
        // only at its end; the search visits each trie node at most once, so it stays linear.
        var patterns: [String] = []
        for depth in 1...24 {
            patterns.append("/" + Array(repeating: "a", count: depth).joined(separator: "/") + "/never")
            patterns.append("/" + (0..<depth).map { ":p\($0)" }.joined(separator: "/") + "/never")
        }
        patterns.append("/" + (0..<25).map { ":q\($0)" }.joined(separator: "/"))
        let routes = try table(patterns)
        let path = "/" + Array(repeating: "a", count: 25).joined(separator: "/")
        #expect(winner(routes, path) == patterns.last)
    }
}
