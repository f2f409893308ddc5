import Testing

@testable import Router

@Suite("Reverse routing")
struct ReverseRoutingTests {
    static func routes() throws -> RouteTable {
        let routes = RouteTable()
        try routes.add("/", name: "home") { _ in }
        try routes.add("/notes/:id", name: "note") { _ in }
        try routes.add("/users/:id(int)/posts/:slug", name: "post", allowing: .slashes) { _ in }
        try routes.add("/raw/:value", name: "raw", allowing: .all) { _ in }
        try routes.add("/files/**path", name: "file") { _ in }
        try routes.add("/any/*", name: "wild") { _ in }
        try routes.add("/caf%C3%A9/:x", name: "cafe") { _ in }
        return routes
    }

    @Test("builds paths, percent-encoding parameter values so they round-trip")
    func buildsPaths() throws {
        let routes = try Self.routes()
        #expect(try routes.url(for: "home") == "/")
        #expect(try routes.url(for: "note", params: ["id": "7"]) == "/notes/7")
        #expect(
            try routes.url(for: "post", params: ["id": "3", "slug": "hello world/2?#%"])
                == "/users/3/posts/hello%20world%2F2%3F%23%25")
        #expect(try routes.url(for: "file", params: ["path": "a/b c.txt"]) == "/files/a/b%20c.txt")
        #expect(try routes.url(for: "file", params: ["path": ""]) == "/files")
        #expect(try routes.url(for: "cafe", params: ["x": "é"]) == "/caf%C3%A9/%C3%A9")
        #expect(try routes.url(for: "raw", params: ["value": ".."]) == "/raw/%2E%2E")
        for (name, params) in [
            ("raw", ["value": "a/b?c"]), ("raw", ["value": "."]), ("post", ["id": "9", "slug": "ü ñ"]),
            ("file", ["path": "x/y%z"]), ("note", ["id": "a?b#c%"]),
        ] {
            let url = try routes.url(for: name, params: params)
            let match = try #require(routes.match(url), "\(url) must match")
            #expect(match.route.name == name)
            for (key, value) in params { #expect(match.params[key] == value) }
        }
    }

    @Test("errors on unknown names, missing parameters and values a constraint rejects")
    func errors() throws {
        let routes = try Self.routes()
        #expect(routeError { _ = try routes.url(for: "nope") } == .unknownRouteName("nope"))
        #expect(routeError { _ = try routes.url(for: "note") } == .missingParameter(route: "/notes/:id", name: "id"))
        #expect(
            routeError { _ = try routes.url(for: "post", params: ["id": "x", "slug": "s"]) }
                == .invalidParameter(route: "/users/:id(int)/posts/:slug", name: "id", value: "x"))
        #expect(
            routeError { _ = try routes.url(for: "note", params: ["id": ""]) }
                == .invalidParameter(route: "/notes/:id", name: "id", value: ""))
        #expect(
            routeError { _ = try routes.url(for: "file", params: ["path": "a//b"]) }
                == .invalidParameter(route: "/files/**path", name: "path", value: "a//b"))
        #expect(routeError { _ = try routes.url(for: "wild") } == .missingParameter(route: "/any/*", name: "*"))
        #expect(
            routeError { _ = try routes.url(for: "note") }?.message
                == "Route \"/notes/:id\" needs a value for parameter \"id\".")
    }
}
