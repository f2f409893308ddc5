import Foundation
import Testing

@testable import Router

/// The go-http-routing-benchmark route sets in `<repo>/Tests/Fixtures/routes`.
enum RouteSets {
    static let names = ["github", "static", "parse", "gplus"]

    static var directory: URL {
        URL(fileURLWithPath: #filePath)  // …/Packages/Router/Tests/RouterTests/RouteSetTests.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Fixtures/routes")
    }

    /// The distinct paths of a set (methods dropped: one route per path).
    static func patterns(_ name: String) throws -> [String] {
        let text = try String(contentsOf: directory.appendingPathComponent("\(name).txt"), encoding: .utf8)
        var seen: Set<String> = []
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, seen.insert(String(parts[1])).inserted else { return nil }
            return String(parts[1])
        }
    }

    /// A realistic value for a parameter.
    static func value(for name: String) -> String {
        switch name {
        case "owner", "user", "org", "userId", "target_user", "assignee": "octocat"
        case "repo", "repository": "hello-world"
        case "id", "number", "objectId", "commentId", "activityId": "1347"
        case "sha", "ref": "6dcb09b5b57875f334f61aebed695e2e4193db5e"
        case "email": "octo%40example.com"
        default: "\(name)-value"
        }
    }

    /// A concrete path for a pattern and the parameters it should yield.
    static func concrete(_ pattern: String) -> (path: String, params: [String: String]) {
        var params: [String: String] = [:]
        let path = pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.hasPrefix(":") else { return String(segment) }
            let name = String(segment.dropFirst())
            let value = value(for: name)
            params[name] = value.removingPercentEncoding
            return value
        }.joined(separator: "/")
        return (path, params)
    }
}

@Suite("Real route sets")
struct RouteSetTests {
    @Test("every concrete path of each set matches its own route with the right params", arguments: RouteSets.names)
    func everyRouteMatchesItself(set: String) throws {
        let patterns = try RouteSets.patterns(set)
        #expect(patterns.count == ["github": 142, "static": 157, "parse": 14, "gplus": 12][set])
        let routes = RouteTable()
        for pattern in patterns { try routes.add(pattern) { _ in } }
        for pattern in patterns {
            let (path, params) = RouteSets.concrete(pattern)
            let match = try #require(routes.match(path), "\(path) must match")
            #expect(match.route.pattern == pattern, "\(path)")
            #expect(match.params == params, "\(path)")
            #expect(try routes.navigate(to: path).route.pattern == pattern)
            if path != "/" { #expect(routes.match(path + "/")?.route.pattern == pattern) }
            #expect(routes.match("https://api.example.com" + path)?.route.pattern == pattern)
        }
    }

    @Test("registration order does not change any winner in the GitHub set")
    func githubOrderIndependence() throws {
        let patterns = try RouteSets.patterns("github")
        let forward = RouteTable()
        let backward = RouteTable()
        for pattern in patterns { try forward.add(pattern) { _ in } }
        for pattern in patterns.reversed() { try backward.add(pattern) { _ in } }
        for pattern in patterns {
            let path = RouteSets.concrete(pattern).path
            #expect(forward.match(path)?.route.pattern == backward.match(path)?.route.pattern)
        }
    }
}
