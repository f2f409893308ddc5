import Testing

@testable import Router

/// A parameter's decoded value never smuggles in a `.`/`..` segment or a `/` that was `%2F`,
/// unless its route opts in with a ``ParameterAllowance``.
@Suite("Traversal through parameters")
struct TraversalParameterTests {
    @Test("a named catch-all never joins %2E%2E into a traversal path")
    func catchAllTraversal() throws {
        let routes = try table(["/files/**path"])
        let path = "/files/%2E%2E/%2E%2E/etc/passwd"
        #expect(routes.match(path) == nil)
        #expect(
            routeError { _ = try routes.resolve(path) } == .noMatch(path: path, nearest: "/files/**path"))
        #expect(routes.match("/files/a%2E%2Eb/c.txt")?.params["path"] == "a..b/c.txt", "dots inside a name are fine")
        #expect(routes.match("/files/etc/passwd")?.params["path"] == "etc/passwd")
    }

    @Test(
        "a :param whose value decodes to . or .. or holds a / does not match; the next candidate does",
        arguments: ["/f/%2E%2E", "/f/%2E", "/f/%2e%2E", "/f/a%2Fb", "/f/%2F", "/f/..%2F..%2Fetc"])
    func parameterRefused(path: String) throws {
        let routes = try table(["/f/:name", "/f/*"])
        let match = try #require(routes.match(path))
        #expect(match.route.pattern == "/f/*")
        #expect(match.params.isEmpty)
        #expect(try table(["/f/:name"]).match(path) == nil)
        #expect(try table(["/f/:name(string)"]).match(path) == nil)
    }

    @Test("values that only contain dots, or look like escapes, still match")
    func ordinaryValuesMatch() throws {
        let routes = try table(["/f/:name"])
        for (path, value) in [
            ("/f/...", "..."), ("/f/a.b", "a.b"), ("/f/.hidden", ".hidden"), ("/f/%252E%252E", "%2E%2E"),
        ] {
            #expect(routes.match(path)?.params["name"] == value, "\(path)")
        }
    }

    @Test("a route opts in to dot segments, slashes or both")
    func optIn() throws {
        let routes = RouteTable()
        try routes.add("/dots/:name", allowing: .dotSegments) { _ in }
        try routes.add("/slashes/:name", allowing: .slashes) { _ in }
        try routes.group("/any").add("/:name", allowing: .all) { _ in }
        #expect(routes.match("/dots/%2E%2E")?.params["name"] == "..")
        #expect(routes.match("/dots/a%2Fb") == nil)
        #expect(routes.match("/slashes/a%2Fb")?.params["name"] == "a/b")
        #expect(routes.match("/slashes/%2E%2E") == nil)
        #expect(routes.match("/any/%2E")?.params["name"] == ".")
        #expect(routes.match("/any/a%2F..")?.params["name"] == "a/..")
        #expect(routes.routes.map(\.allowance) == [.dotSegments, .slashes, .all])
    }

    @Test("an opted-in named catch-all matches but gives only its exact segments, never a joined value")
    func optedInCatchAll() throws {
        let routes = RouteTable()
        try routes.add("/files/**path", allowing: .all) { _ in }
        let match = try #require(routes.match("/files/%2E%2E/a%2Fb"))
        #expect(match.catchAll == ["..", "a/b"])
        #expect(match.params["path"] == nil)
        #expect(routes.match("/files/a/b")?.params["path"] == "a/b")
    }

    @Test("navigate and destination routes follow the same rule")
    func navigateRefuses() throws {
        let routes = RouteTable()
        let seen = Recorder<String>()
        try routes.add("/files/**path") { match in seen.append(match.params["path"] ?? "?") }
        try routes.addDestination("/notes/:id") { match in match.params["id"] }
        #expect(throws: RouteError.self) { try routes.navigate(to: "myapp://files/%2E%2E/secret") }
        #expect(throws: RouteError.self) { try routes.navigate(to: "/notes/%2E%2E") }
        try routes.navigate(to: "/files/docs/a.txt")
        #expect(seen.values == ["docs/a.txt"])
    }

    @Test("reverse routing refuses the values its route would not match, unless it opted in")
    func reverseRefuses() throws {
        let routes = RouteTable()
        try routes.add("/notes/:id", name: "note") { _ in }
        try routes.add("/files/**path", name: "file") { _ in }
        try routes.add("/raw/:id", name: "raw", allowing: .all) { _ in }
        for value in ["..", ".", "a/b", "/"] {
            #expect(
                routeError { _ = try routes.url(for: "note", params: ["id": value]) }
                    == .invalidParameter(route: "/notes/:id", name: "id", value: value))
        }
        for value in ["../etc", "a/./b", ".."] {
            #expect(
                routeError { _ = try routes.url(for: "file", params: ["path": value]) }
                    == .invalidParameter(route: "/files/**path", name: "path", value: value))
        }
        #expect(try routes.url(for: "raw", params: ["id": "../x"]) == "/raw/..%2Fx")
        #expect(routes.match(try routes.url(for: "raw", params: ["id": "../x"]))?.params["id"] == "../x")
    }
}
