import Router
import Testing

// The "must compile and behave as written" snippet, unchanged, inside a function.
// swift-format-ignore
private func readmeSnippet() throws {
    let routes = RouteTable()
    try routes.add("/notes") { match in print("all notes", match.data["title"] as Any) }
    try routes.add("/notes/:id", name: "note") { match in print(match.params["id"]!, match.query["sort"] as Any) }
    try routes.add("/files/**") { match in print(match.catchAll) }         // "/files/a/b.txt" → ["a", "b.txt"]
    let result = try routes.navigate(to: "/notes/5?sort=asc", data: ["title": "Simple Notes"])
    assert(result.params["id"] == "5" && result.int("id") == 5)
    assert(routes.canNavigate(to: "/notes/6"))
    let url = try routes.url(for: "note", params: ["id": "7"])
    assert(url == "/notes/7")
    routes.remove("/notes/:id")
}

@Suite("README snippet")
struct ReadmeSnippetTests {
    @Test("the issue's snippet compiles and runs")
    func snippetRuns() throws {
        try readmeSnippet()
    }

    @Test("the snippet's claims hold, checked with #expect")
    func snippetClaims() throws {
        let routes = RouteTable()
        try routes.add("/notes") { _ in }
        try routes.add("/notes/:id", name: "note") { _ in }
        try routes.add("/files/**") { _ in }
        let result = try routes.navigate(to: "/notes/5?sort=asc", data: ["title": "Simple Notes"])
        #expect(result.params["id"] == "5")
        #expect(result.int("id") == 5)
        #expect(result.query["sort"] == "asc")
        #expect(result.data["title"] as? String == "Simple Notes")
        #expect(try routes.navigate(to: "/files/a/b.txt").catchAll == ["a", "b.txt"])
        #expect(routes.canNavigate(to: "/notes/6"))
        #expect(try routes.url(for: "note", params: ["id": "7"]) == "/notes/7")
        #expect(routes.remove("/notes/:id"))
        #expect(routes.match("/notes/6") == nil)
        #expect(routes.match("/notes")?.route.pattern == "/notes")
    }
}

/// Destinations of the README's deep-link example.
private enum ReadmeScreen: Hashable, Sendable { case notes, note(Int), settings }

@Suite("README deep-link example")
struct ReadmeDeepLinkTests {
    @Test("the README's navigation-stack example runs as written")
    func deepLinkExample() throws {
        let routes = RouteTable()
        let stack = RouteStack<ReadmeScreen>()
        try routes.addDestination("/notes") { _ in ReadmeScreen.notes }
        try routes.addDestination("/notes/:id(int)") { match in match.int("id").map(ReadmeScreen.note) }
        try routes.addDestination("/settings", presentation: .present) { _ in ReadmeScreen.settings }

        try routes.navigate(to: "myapp://notes", using: stack)
        try routes.navigate(to: "https://example.com/notes/42", using: stack)
        #expect(stack.path == [.notes, .note(42)])
        try routes.navigate(to: "myapp://settings", using: stack)
        #expect(stack.presented == .settings)
    }
}
