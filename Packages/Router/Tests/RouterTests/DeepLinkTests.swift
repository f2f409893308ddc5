import Testing

@testable import Router

@Suite("Deep links")
struct DeepLinkTests {
    @Test(
        "full URLs match by path",
        arguments: [
            ("myapp://notes/5", "myapp", nil as String?),
            ("myapp:///notes/5", "myapp", nil),
            ("https://example.com/notes/5", "https", "example.com"),
            ("HTTPS://Example.COM:8443/notes/5", "https", "example.com"),
            ("http://user@example.com/notes/5/", "http", "example.com"),
            ("/notes/5", nil, nil),
        ])
    func matchesByPath(url: String, scheme: String?, host: String?) throws {
        let match = try #require(try table(["/notes/:id"]).match(url))
        #expect(match.route.pattern == "/notes/:id")
        #expect(match.params["id"] == "5")
        #expect(match.scheme == scheme)
        #expect(match.host == host)
        #expect(match.url == url)
    }

    @Test("a custom scheme's authority is the first segment; an empty URL path is the root")
    func customSchemeAuthority() throws {
        let routes = try table(["/", "/notes", "/settings/:section"])
        #expect(winner(routes, "myapp://notes") == "/notes")
        #expect(winner(routes, "myapp://settings/privacy?x=1#top") == "/settings/:section")
        #expect(winner(routes, "myapp://") == "/")
        #expect(winner(routes, "https://example.com") == "/")
        #expect(winner(routes, "https://example.com/") == "/")
    }

    @Test("scheme and host limits choose among routes of the same shape, most specific first")
    func schemeAndHostLimits() throws {
        let routes = RouteTable()
        try routes.add("/notes/:id") { _ in }
        try routes.add("/notes/:id", scheme: "myapp") { _ in }
        try routes.add("/notes/:id", host: "example.com") { _ in }
        try routes.add("/notes/:id", scheme: "https", host: "Example.com") { _ in }
        try routes.add("/only-web", host: "example.com") { _ in }
        func limits(_ url: String) -> String? {
            routes.match(url).map { "\($0.route.scheme ?? "-") \($0.route.host ?? "-")" }
        }
        #expect(limits("/notes/1") == "- -")
        #expect(limits("myapp://notes/1") == "myapp -")
        #expect(limits("http://example.com/notes/1") == "- example.com")
        #expect(limits("https://example.com/notes/1") == "https example.com")
        #expect(limits("https://other.org/notes/1") == "- -")
        #expect(limits("/only-web") == nil)
        #expect(limits("https://example.com/only-web") == "- example.com")
        #expect(limits("https://other.org/only-web") == nil)
    }

    @Test("query items are decoded with + as space; the first value wins; the fragment is kept")
    func queryAndFragment() throws {
        let match = try #require(
            try table(["/search"]).match("/search?q=swift+routing&lang=en%2Dgb&q=second&flag&bad=%zz#results"))
        #expect(match.query == ["q": "swift routing", "lang": "en-gb", "flag": "", "bad": "%zz"])
        #expect(match.fragment == "results")
        #expect(try table(["/a/:x"]).match("/a/b?c=d")?.params == ["x": "b"])
        #expect(try table(["/a/:x"]).match("/a/b#c?d")?.query == [:])
    }
}
