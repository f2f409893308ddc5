import Testing

@testable import Router

@Suite("Path rules")
struct PathRulesTests {
    @Test("one trailing slash is ignored, in paths and in patterns")
    func trailingSlash() throws {
        let routes = try table(["/notes", "/files/"])
        #expect(winner(routes, "/notes/") == "/notes")
        #expect(winner(routes, "/files") == "/files/")
        #expect(winner(routes, "/notes//") == nil)
    }

    @Test("repeated slashes make an empty segment, which matches nothing")
    func repeatedSlashes() throws {
        let routes = try table(["/notes/:id", "/notes/*/x", "/**", "/"])
        #expect(winner(routes, "/notes//x") == nil)
        #expect(winner(routes, "//notes/5") == nil)
        #expect(winner(routes, "//") == nil)
        #expect(winner(routes, "/notes/5") == "/notes/:id")
        #expect(winner(routes, "/") == "/")
        #expect(
            routeError { _ = try routes.resolve("/notes//x") } == .noMatch(path: "/notes//x", nearest: "/notes/:id"))
    }

    @Test("literals are case-sensitive by default and case-insensitive as an option; parameters keep their case")
    func caseSensitivity() throws {
        let sensitive = try table(["/Notes/:id"])
        #expect(winner(sensitive, "/notes/5") == nil)
        #expect(winner(sensitive, "/Notes/5") == "/Notes/:id")
        let insensitive = try table(["/Notes/:id", "/ABOUT"], options: RouteOptions(caseInsensitive: true))
        let match = try #require(insensitive.match("/nOtEs/MiXeD"))
        #expect(match.route.pattern == "/Notes/:id")
        #expect(match.params["id"] == "MiXeD")
        #expect(winner(insensitive, "/about") == "/ABOUT")
        #expect(
            routeError { try insensitive.add("/notes/:x") { _ in } }
                == .conflict(pattern: "/notes/:x", existing: "/Notes/:id"))
    }

    @Test(
        "each segment is percent-decoded exactly once, after splitting",
        arguments: [
            // %2F never makes a segment, and %2E%2E never a traversal: a parameter refuses both
            // (see TraversalParameterTests), so the catch-all takes them, in exact segments.
            ("/f/a%2Fb", "/**", [:]),
            ("/f/%2E%2E", "/**", [:]),
            ("/f/%252E", "/f/:name", ["name": "%2E"]),  // decoded once: %252E stays %2E
            ("/f/caf%C3%A9", "/f/:name", ["name": "café"]),
            ("/f/a+b%20c", "/f/:name", ["name": "a+b c"]),  // + is not a space in paths
            ("/lit%20eral", "/lit eral", [:]),  // literals compare decoded
            ("/lit eral", "/lit eral", [:]),
        ])
    func percentDecoding(path: String, pattern: String, params: [String: String]) throws {
        let routes = try table(["/f/:name", "/lit%20eral", "/", "/f/a/b", "/**"])
        let match = try #require(routes.match(path))
        #expect(match.route.pattern == (pattern == "/lit eral" ? "/lit%20eral" : pattern))
        #expect(match.params == params)
    }

    @Test("%2F inside a catch-all stays inside its segment, and never reaches the joined value")
    func encodedSlashInCatchAll() throws {
        // Joined, "a%2Fb/c" and "a/b/c" would read the same: a named catch-all refuses it.
        #expect(try table(["/files/**path"]).match("/files/a%2Fb/c") == nil)
        let unnamed = try #require(try table(["/files/**"]).match("/files/a%2Fb/c"))
        #expect(unnamed.catchAll == ["a/b", "c"])
        #expect(unnamed.params.isEmpty)
    }

    @Test(
        "bad input is a typed error, never a crash",
        arguments: [
            ("/notes/%", PathProblem.invalidPercentEscape(offset: 7)),
            ("/notes/%4", .invalidPercentEscape(offset: 7)),
            ("/notes/a%zz", .invalidPercentEscape(offset: 8)),
            ("/notes/%FF", .invalidPercentEscape(offset: 7)),
            ("/notes/%C3", .invalidPercentEscape(offset: 7)),
            ("/notes/a\u{0}b", .nulByte),
            ("/notes/%00", .nulByte),
            ("/notes/../admin", .dotSegment),
            ("/notes/./5", .dotSegment),
            ("/..", .dotSegment),
            ("notes/5", .notAbsolute),
            ("", .notAbsolute),
            ("1http://x/y", .notAbsolute),
            ("myapp:notes", .notAbsolute),
        ])
    func badInput(path: String, problem: PathProblem) throws {
        let routes = try table(["/notes/:id", "/admin", "/**"])
        #expect(routeError { try routes.navigate(to: path) } == .invalidPath(path: path, problem: problem))
        #expect(routes.match(path) == nil)
        #expect(!routes.canNavigate(to: path))
    }

    @Test("`..` is never normalised into a different route")
    func dotDotNeverNormalised() throws {
        let routes = try table(["/admin", "/notes/:id/**rest"])
        #expect(routes.match("/notes/../admin") == nil)
        #expect(routes.match("/notes/5/../../admin") == nil)
        // Escaped, the dots stay in their segment, and a parameter refuses them as a value.
        #expect(routes.match("/notes/%2E%2E/admin") == nil)
    }

    @Test("10 000 segments: a typed error by default, a bounded linear match when allowed")
    func manySegments() throws {
        let path = "/files" + String(repeating: "/a", count: 10_000)
        let routes = try table(["/files/**", "/files/:a/:b"])
        #expect(
            routeError { try routes.navigate(to: path) }
                == .invalidPath(path: path, problem: .tooManySegments(limit: 1_024)))
        let roomy = try table(
            ["/files/**", "/files/:a/:b"], options: RouteOptions(limits: RouteLimits(maximumSegments: 20_000)))
        let match = try #require(roomy.match(path))
        #expect(match.route.pattern == "/files/**")
        #expect(match.catchAll.count == 10_000)
        let noCatchAll = try table(
            ["/files/:a/:b"], options: RouteOptions(limits: RouteLimits(maximumSegments: 20_000)))
        #expect(noCatchAll.match(path) == nil)
    }

    @Test("a 1 MB path: a typed error by default, a bounded match when allowed")
    func megabytePath() throws {
        let long = "/notes/" + String(repeating: "x", count: 1_048_576)
        let routes = try table(["/notes/:id"])
        let error = routeError { try routes.navigate(to: long) }
        #expect(error == .invalidPath(path: long, problem: .tooLong(limit: 65_536)))
        #expect((error?.message.utf8.count ?? .max) < 400, "messages abbreviate huge paths")
        let roomy = try table(["/notes/:id"], options: RouteOptions(limits: RouteLimits(maximumLength: 2_000_000)))
        #expect(roomy.match(long)?.params["id"]?.utf8.count == 1_048_576)
        let escaped = "/notes/" + String(repeating: "%41", count: 300_000)
        #expect(roomy.match(escaped)?.params["id"] == String(repeating: "A", count: 300_000))
        let slashes = "/" + String(repeating: "/", count: 1_000_000)
        #expect(roomy.match(slashes) == nil)
    }
}
