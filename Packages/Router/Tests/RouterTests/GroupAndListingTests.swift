import Testing

@testable import Router

@Suite("Groups and listing")
struct GroupAndListingTests {
    @Test("groups share a prefix, nest, and may hold parameters")
    func groups() throws {
        let routes = RouteTable()
        let admin = routes.group("/admin")
        try admin.add("/") { _ in }
        try admin.add("/users/:id", name: "adminUser") { _ in }
        let team = admin.group("teams/:team/")
        try team.add("members/:member") { _ in }
        try team.addDestination("/settings", build: { $0.params["team"] })
        #expect(winner(routes, "/admin") == "/admin")
        #expect(winner(routes, "/admin/users/3") == "/admin/users/:id")
        let match = try #require(routes.match("/admin/teams/red/members/ann"))
        #expect(match.route.pattern == "/admin/teams/:team/members/:member")
        #expect(match.params == ["team": "red", "member": "ann"])
        #expect(try routes.url(for: "adminUser", params: ["id": "3"]) == "/admin/users/3")
        #expect(try routes.navigate(to: "/admin/teams/red/settings").destination as? String == "red")
        #expect(
            routeError { try routes.group("/x/:id").add("/y/:id") { _ in } }
                == .malformedPattern(pattern: "/x/:id/y/:id", position: 9, problem: .duplicateName("id")))
    }

    @Test("the table lists every route with its name, limits and parameters")
    func listing() throws {
        let routes = RouteTable()
        try routes.add("/notes/:id", name: "note") { _ in }
        try routes.add("/files/**path", scheme: "MyApp", host: "Files.example") { _ in }
        try routes.addDestination("/settings", presentation: .present) { _ in "settings" }
        let listed = routes.routes
        #expect(listed.map(\.pattern) == ["/notes/:id", "/files/**path", "/settings"])
        #expect(listed.map(\.description) == ["/notes/:id (note)", "myapp://files.example/files/**path", "/settings"])
        #expect(listed[0].parameterNames == ["id"])
        #expect(listed[1].parameterNames == ["path"])
        #expect(listed.map(\.hasDestination) == [false, false, true])
        #expect(Set(listed.map(\.id)).count == 3)
    }

    @Test("removing by pattern or name takes the route out of matching and listing")
    func removing() throws {
        let routes = try table(["/a/:x", "/a/b"])
        try routes.add("/c", name: "c") { _ in }
        #expect(routes.remove("/a/:renamed"), "removal goes by shape")
        #expect(!routes.remove("/a/:x"))
        #expect(!routes.remove("not a pattern"))
        #expect(winner(routes, "/a/q") == nil)
        #expect(winner(routes, "/a/b") == "/a/b")
        #expect(routes.remove(named: "c"))
        #expect(!routes.remove(named: "c"))
        #expect(routes.routes.map(\.pattern) == ["/a/b"])
        try routes.add("/a/:x") { _ in }
        #expect(winner(routes, "/a/q") == "/a/:x")
    }
}
