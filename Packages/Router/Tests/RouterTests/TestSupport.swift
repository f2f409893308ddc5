import Foundation
import Testing

@testable import Router

/// A table whose routes do nothing, for matching tests.
func table(_ patterns: [String], options: RouteOptions = RouteOptions()) throws -> RouteTable {
    let routes = RouteTable(options: options)
    for pattern in patterns { try routes.add(pattern) { _ in } }
    return routes
}

/// The pattern of the route that matches `path`, or nil.
func winner(_ routes: RouteTable, _ path: String) -> String? {
    routes.match(path)?.route.pattern
}

/// The error `body` throws, as a `RouteError`.
func routeError(_ body: () throws -> Void) -> RouteError? {
    do {
        try body()
        return nil
    } catch {
        return error as? RouteError
    }
}

/// Collects values from handlers running on any thread.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        storage.append(value)
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
