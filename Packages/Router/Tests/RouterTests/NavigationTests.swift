import Foundation
import Testing

@testable import Router

/// Destinations of a small notes app.
enum Screen: Hashable, Sendable {
    case notes, note(Int), settings, login
}

@Suite("Destinations and navigation stacks")
struct NavigationTests {
    static func routes() throws -> RouteTable {
        let routes = RouteTable()
        try routes.addDestination("/notes") { _ in Screen.notes }
        try routes.addDestination("/notes/:id(int)") { match in match.int("id").map(Screen.note) }
        try routes.addDestination("/settings", presentation: .present) { _ in Screen.settings }
        try routes.addDestination("/login", presentation: .start) { _ in Screen.login }
        try routes.addDestination("/raw") { _ in "not a screen" }
        return routes
    }

    @Test("navigate hands each destination to the navigator as its route says")
    func navigatorReceivesDestinations() throws {
        let routes = try Self.routes()
        let stack = RouteStack<Screen>()
        try routes.navigate(to: "/notes", using: stack)
        let match = try routes.navigate(to: "myapp://notes/5", using: stack)
        #expect(match.destination as? Screen == .note(5))
        #expect(stack.path == [.notes, .note(5)])
        try routes.navigate(to: "/settings", using: stack)
        #expect(stack.presented == .settings)
        try routes.navigate(to: "/login", using: stack)
        #expect(stack.current == RouteStack<Screen>.State(path: [.login], presented: nil))
        #expect(
            routeError { try routes.navigate(to: "/raw", using: stack) }
                == .unexpectedDestination(expected: "Screen", received: "String"))
        #expect(
            routeError { try routes.navigate(to: "/notes/x", using: stack) }
                == .noMatch(path: "/notes/x", nearest: "/notes/:id(int)"))
    }

    @Test("the stack pushes, pops, replaces and reports every change to observers")
    func stackOperations() throws {
        let stack = RouteStack<Screen>([.notes])
        let seen = Recorder<[Screen]>()
        let token = stack.observe { seen.append($0.path) }
        stack.push(.note(1))
        stack.push(.note(2))
        #expect(stack.pop() == [.note(2)])
        stack.replace(with: [.notes, .note(3), .note(4)])
        #expect(stack.pop(5) == [.notes, .note(3), .note(4)])
        stack.replace(with: [.notes, .settings])
        stack.popToRoot()
        stack.present(.login)
        stack.dismiss()
        #expect(
            seen.values == [
                [.notes, .note(1)], [.notes, .note(1), .note(2)], [.notes, .note(1)], [.notes, .note(3), .note(4)], [],
                [.notes, .settings], [.notes], [.notes], [.notes],
            ])
        token.cancel()
        stack.push(.settings)
        #expect(seen.values.count == 9)
    }

    @Test("changes() streams states as an async sequence")
    func changesStream() async throws {
        let stack = RouteStack<Screen>()
        let stream = stack.changes()
        stack.push(.notes)
        stack.push(.note(1))
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.path == [.notes])
        #expect(await iterator.next()?.path == [.notes, .note(1)])
    }

    @Test("a table navigated and changed from many tasks at once stays consistent")
    func concurrentUse() async throws {
        let routes = RouteTable()
        try routes.add("/fixed/:id") { _ in }
        let handled = Recorder<Int>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for step in 0..<60 {
                        let id = worker * 1_000 + step
                        try routes.add("/w\(worker)/s\(step)/:x") { _ in handled.append(id) }
                        try routes.navigate(to: "/w\(worker)/s\(step)/value")
                        #expect(routes.match("/fixed/\(step)")?.params["id"] == "\(step)")
                        if step.isMultiple(of: 2) { #expect(routes.remove("/w\(worker)/s\(step)/:y")) }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(handled.values.count == 480)
        #expect(routes.routes.count == 1 + 240)
    }
}
