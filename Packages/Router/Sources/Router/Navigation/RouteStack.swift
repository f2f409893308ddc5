import Foundation
import Observation

/// A platform-agnostic navigation stack: the destinations shown, in order, plus one presented
/// modally. A ``Navigator``, and `Observable`: a SwiftUI view that reads ``path`` re-renders when
/// the path changes, not when only ``presented`` does (and the other way round). Code without
/// Observation follows it through ``observe(_:)`` and ``changes()``.
///
/// A SwiftUI `NavigationStack(path:)` follows it with a binding:
/// ```swift
/// NavigationStack(path: Binding(get: { stack.path }, set: { stack.replace(with: $0) })) { … }
/// ```
/// and a UIKit coordinator calls `setViewControllers` from an ``observe(_:)`` callback.
public final class RouteStack<Destination: Hashable & Sendable>: Navigator, Observable, @unchecked Sendable {
    /// What the stack shows at one moment.
    public struct State: Sendable, Equatable {
        /// The pushed destinations, root first.
        public var path: [Destination]
        /// The destination presented modally, if any.
        public var presented: Destination?
    }

    private let lock = NSLock()
    private let registrar = ObservationRegistrar()
    // Guarded by `lock`.
    private var state = State(path: [], presented: nil)
    private var observers: [Int: @Sendable (State) -> Void] = [:]
    private var nextObserver = 0

    /// A stack showing `path`.
    public init(_ path: [Destination] = []) {
        state.path = path
    }

    /// The pushed destinations, root first.
    public var path: [Destination] {
        registrar.access(self, keyPath: \.path)
        return withLock { state.path }
    }
    /// The destination presented modally, if any.
    public var presented: Destination? {
        registrar.access(self, keyPath: \.presented)
        return withLock { state.presented }
    }
    /// Everything the stack shows.
    public var current: State {
        registrar.access(self, keyPath: \.path)
        registrar.access(self, keyPath: \.presented)
        return withLock { state }
    }

    /// Pushes a destination.
    public func push(_ destination: Destination) { update { $0.path.append(destination) } }

    /// Pops the top `count` destinations (fewer if the stack is shorter).
    /// - Returns: The destinations removed, top last.
    @discardableResult
    public func pop(_ count: Int = 1) -> [Destination] {
        var removed: [Destination] = []
        update { state in
            let kept = max(0, state.path.count - max(0, count))
            removed = Array(state.path[kept...])
            state.path.removeSubrange(kept...)
        }
        return removed
    }

    /// Pops everything but the root.
    public func popToRoot() { update { $0.path = Array($0.path.prefix(1)) } }

    /// Replaces the whole path, as a `NavigationStack(path:)` binding's setter does.
    public func replace(with path: [Destination]) { update { $0.path = path } }

    /// Presents a destination modally.
    public func present(_ destination: Destination) { update { $0.presented = destination } }

    /// Dismisses the modal destination.
    public func dismiss() { update { $0.presented = nil } }

    /// Starts over with `destination` as the only one.
    public func start(_ destination: Destination) {
        update { $0 = State(path: [destination], presented: nil) }
    }

    /// Calls `observer` after every change, with the new state, until the token is cancelled.
    public func observe(_ observer: @escaping @Sendable (State) -> Void) -> StackObservation {
        let id = withLock {
            nextObserver += 1
            observers[nextObserver] = observer
            return nextObserver
        }
        return StackObservation { [weak self] in self?.withLock { _ = self?.observers.removeValue(forKey: id) } }
    }

    /// Every state from now on, as an async sequence; it ends when the task iterating it is cancelled.
    public func changes() -> AsyncStream<State> {
        AsyncStream { continuation in
            let token = observe { continuation.yield($0) }
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    // MARK: Navigator

    /// Pushes `destination` if it is a `Destination`.
    /// - Throws: ``RouteError/unexpectedDestination(expected:received:)`` otherwise.
    public func push(_ destination: any Sendable) throws { push(try cast(destination)) }

    /// Presents `destination` if it is a `Destination`.
    /// - Throws: ``RouteError/unexpectedDestination(expected:received:)`` otherwise.
    public func present(_ destination: any Sendable) throws { present(try cast(destination)) }

    /// Starts over with `destination` if it is a `Destination`.
    /// - Throws: ``RouteError/unexpectedDestination(expected:received:)`` otherwise.
    public func start(_ destination: any Sendable) throws { start(try cast(destination)) }

    private func cast(_ destination: any Sendable) throws(RouteError) -> Destination {
        guard let typed = destination as? Destination else {
            throw .unexpectedDestination(
                expected: String(describing: Destination.self), received: String(describing: type(of: destination)))
        }
        return typed
    }

    private func update(_ change: (inout State) -> Void) {
        let (old, new, toNotify) = withLock {
            let old = state
            change(&state)
            return (old, state, Array(observers.values))
        }
        // Signalled after the lock is released, so a reader called back by Observation can read
        // the stack; it sees the new state. Only the parts that changed are signalled.
        if old.path != new.path { signal(\.path) }
        if old.presented != new.presented { signal(\.presented) }
        for observer in toNotify { observer(new) }
    }

    private func signal<Member>(_ keyPath: KeyPath<RouteStack, Member>) {
        registrar.willSet(self, keyPath: keyPath)
        registrar.didSet(self, keyPath: keyPath)
    }

    private func withLock<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// Keeps a ``RouteStack`` observer registered until ``cancel()`` is called or it is released.
public final class StackObservation: Sendable {
    private let onCancel: @Sendable () -> Void

    init(_ onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Stops the observer; calling it again does nothing.
    public func cancel() { onCancel() }

    deinit { onCancel() }
}
