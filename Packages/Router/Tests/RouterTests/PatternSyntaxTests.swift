import Testing

@testable import Router

@Suite("Pattern syntax")
struct PatternSyntaxTests {
    @Test("literals, parameters, wildcards and catch-alls parse into their segments")
    func parsesSegments() throws {
        let pattern = try RoutePattern("/a/:id(int)/*/**rest")
        #expect(
            pattern.segments == [
                .literal("a"), .parameter(name: "id", constraint: .int), .wildcard, .catchAll(name: "rest"),
            ])
        #expect(pattern.parameterNames == ["id", "rest"])
        #expect(try RoutePattern("/").segments.isEmpty)
        #expect(try RoutePattern("/notes/").segments == [.literal("notes")])
        #expect(try RoutePattern("/a%20b").segments == [.literal("a b")])
        #expect(try RoutePattern("/:x(string)").segments == [.parameter(name: "x", constraint: .string)])
    }

    @Test(
        "malformed patterns throw a typed error with the pattern and position",
        arguments: [
            ("notes", 0, PatternProblem.notAbsolute),
            ("", 0, .notAbsolute),
            ("/notes/:", 8, .emptyName),
            ("/notes/:(int)", 8, .emptyName),
            ("/files/**/x", 10, .catchAllNotLast),
            ("/files/**rest/:id", 14, .catchAllNotLast),
            ("/a/:id/b/:id", 9, .duplicateName("id")),
            ("/a/:id/**id", 7, .duplicateName("id")),
            ("/a//b", 3, .emptySegment),
            ("//", 1, .emptySegment),
            ("/a/:id(number)", 7, .unknownConstraint("number")),
            ("/a/:id(int", 9, .invalidCharacter("t")),
            ("/a/:i-d", 5, .invalidCharacter("-")),
            ("/a?b", 2, .invalidCharacter("?")),
            ("/a#b", 2, .invalidCharacter("#")),
            ("/a*", 2, .invalidCharacter("*")),
            ("/*x", 2, .invalidCharacter("x")),
            ("/**a-b", 4, .invalidCharacter("-")),
            ("/a/..", 3, .dotSegment),
            ("/./a", 1, .dotSegment),
            ("/%2E%2E", 1, .dotSegment),
            ("/a%2", 1, .invalidPercentEscape),
            ("/a%zz", 1, .invalidPercentEscape),
            ("/a%00", 1, .invalidCharacter("\u{0}")),
        ])
    func malformed(pattern: String, position: Int, problem: PatternProblem) {
        let routes = RouteTable()
        let error = routeError { try routes.add(pattern) { _ in } }
        #expect(error == .malformedPattern(pattern: pattern, position: position, problem: problem))
        #expect(error?.message.contains("position \(position)") == true)
        #expect(routes.routes.isEmpty)
    }

    @Test("patterns of the same shape conflict unless replacement is asked for")
    func conflicts() throws {
        let routes = RouteTable()
        let first = Recorder<String>()
        try routes.add("/notes/:id") { _ in first.append("old") }
        let error = routeError { try routes.add("/notes/:noteID") { _ in } }
        #expect(error == .conflict(pattern: "/notes/:noteID", existing: "/notes/:id"))
        #expect(error?.code == "RouteError.conflict")
        // Different constraints, wildcards and limits are different shapes.
        try routes.add("/notes/:id(int)") { _ in }
        try routes.add("/notes/*") { _ in }
        try routes.add("/notes/:id", host: "example.com") { _ in }
        try routes.add("/notes/:other", replacing: true) { _ in first.append("new") }
        try routes.navigate(to: "/notes/x")
        #expect(first.values == ["new"])
        #expect(
            routes.routes.map(\.pattern).sorted() == ["/notes/*", "/notes/:id", "/notes/:id(int)", "/notes/:other"])
        // A trailing slash does not make a new shape.
        #expect(routeError { try routes.add("/notes/:x/") { _ in } } != nil)
    }

    @Test("route names are unique unless replacement is asked for")
    func duplicateNames() throws {
        let routes = RouteTable()
        try routes.add("/a", name: "home") { _ in }
        #expect(
            routeError { try routes.add("/b", name: "home") { _ in } }
                == .duplicateRouteName(name: "home", existing: "/a"))
        try routes.add("/b", name: "home", replacing: true) { _ in }
        #expect(try routes.url(for: "home") == "/b")
        #expect(routes.match("/a") == nil)
    }
}
