import Errors
import Foundation
import _KitSupport

/// Named services with factories and dependencies (iStructure's `$register`, `$start`, `$stop`).
///
/// A service is created by its factory when it is first started, and created afresh after it
/// was stopped. Starting a service starts its declared dependencies first; stopping it stops
/// the running services that depend on it first. Starting a running service is a no-op, and
/// so is stopping a stopped one. Lifecycle calls are serialised: two `start`s of one service
/// never run its `start` twice.
///
/// ```swift
/// app.services.register("net_state") { NetworkStateService(bus: app.bus) }
/// try await app.services.start("net_state", options: ["verbose": true])
/// try await app.services.stop("net_state")
/// ```
public final class ServiceRegistry: Sendable {
    struct Registration: Sendable {
        var dependencies: [String]
        var stopTimeout: Duration?
        var factory: @Sendable () -> any AppService
    }

    /// The shutdown of the ``run(stopTimeout:signals:)`` in progress, if any, and whether a
    /// shutdown was asked for before it began.
    struct RunState: Sendable {
        var trigger: ShutdownTrigger?
        var shutdownPending = false
    }

    private let registrations = Locked<[String: Registration]>([:])
    let lifecycle: ServiceLifecycle
    let runState = Locked(RunState())

    /// An empty registry.
    /// - Parameter log: Where lifecycle events go: each start and stop (`info`), failures
    ///   (`error`), the beginning and outcome of a shutdown (`notice`, or `error` when a
    ///   service timed out or threw). Entries have the source `Services` and a `service` key.
    public init(log: LogSink = .discard) {
        lifecycle = ServiceLifecycle(log: log)
    }

    /// Registers a factory under `name`, replacing any earlier registration of that name.
    ///
    /// A running instance made by an earlier factory keeps running until it is stopped.
    /// - Parameters:
    ///   - name: The name services are started and stopped by.
    ///   - dependencies: Names of services that must run before this one starts.
    ///   - stopTimeout: How long a shutdown by ``run(stopTimeout:signals:)`` waits for this
    ///     service to stop; nil uses the timeout `run` was given.
    ///   - factory: Makes the service; called on each start after a stop.
    public func register(
        _ name: String, dependsOn dependencies: [String] = [], stopTimeout: Duration? = nil,
        _ factory: @escaping @Sendable () -> any AppService
    ) {
        registrations.withLock {
            $0[name] = Registration(dependencies: dependencies, stopTimeout: stopTimeout, factory: factory)
        }
    }

    /// Registers a factory under the type's name; start and stop it by type.
    public func register<S: AppService>(
        _ type: S.Type, dependsOn dependencies: [String] = [], stopTimeout: Duration? = nil,
        _ factory: @escaping @Sendable () -> S
    ) {
        register(Self.name(of: type), dependsOn: dependencies, stopTimeout: stopTimeout) { factory() }
    }

    /// Whether a service is registered under `name`.
    public func isRegistered(_ name: String) -> Bool { registrations.withLock { $0[name] != nil } }

    /// The names of every registered service, sorted.
    public var names: [String] { registrations.withLock { $0.keys.sorted() } }

    /// Starts `name` after its dependencies; a running service is left as it is.
    /// - Throws: ``ServiceError`` for unknown names, unknown dependencies, cycles and failed starts.
    public func start(_ name: String, options: [String: any Sendable] = [:]) async throws {
        let order = try startOrder(for: name)
        let all = registrations.withLock { $0 }
        try await lifecycle.start(order, options: options, target: name, registrations: all)
    }

    /// Starts the service registered for `type`.
    public func start<S: AppService>(_ type: S.Type, options: [String: any Sendable] = [:]) async throws {
        try await start(Self.name(of: type), options: options)
    }

    /// Stops `name` after the running services that depend on it; a stopped service is left as it is.
    /// - Throws: ``ServiceError/unknownService(_:known:)``, or ``ServiceError/stopFailed(_:underlying:)``
    ///   after every service that should stop has been asked to.
    public func stop(_ name: String) async throws {
        guard isRegistered(name) else { throw ServiceError.unknownService(name, known: names) }
        try await lifecycle.stop(name)
    }

    /// Stops the service registered for `type`.
    public func stop<S: AppService>(_ type: S.Type) async throws { try await stop(Self.name(of: type)) }

    /// Stops every running service, dependents before their dependencies.
    public func stopAll() async throws {
        try await lifecycle.stopAll()
    }

    /// Whether `name` is running.
    public func isRunning(_ name: String) async -> Bool { await lifecycle.isRunning(name) }

    /// The running instance registered under `name`, if it is running and of type `S`.
    public func service<S: AppService>(_ name: String, as type: S.Type = S.self) async -> S? {
        await lifecycle.instance(name) as? S
    }

    /// The running instance registered for `type`.
    public func service<S: AppService>(_ type: S.Type) async -> S? { await service(Self.name(of: type), as: type) }

    /// The names of the running services, in the order they started.
    public var running: [String] { get async { await lifecycle.startedOrder } }

    /// A copy of the registrations.
    var allRegistrations: [String: Registration] { registrations.withLock { $0 } }

    /// Dependencies first, `name` last; each service once.
    func startOrder(for name: String) throws(ServiceError) -> [String] {
        let all = registrations.withLock { $0 }
        guard all[name] != nil else { throw .unknownService(name, known: all.keys.sorted()) }
        return try Self.startOrder(for: [name], in: all)
    }

    /// Every registered service, each after its dependencies (ties in name order).
    func startOrderForAll() throws(ServiceError) -> [String] {
        let all = registrations.withLock { $0 }
        return try Self.startOrder(for: all.keys.sorted(), in: all)
    }

    private static func startOrder(
        for names: [String], in all: [String: Registration]
    ) throws(ServiceError)
        -> [String]
    {
        var order: [String] = []
        var visiting: [String] = []
        func visit(_ current: String, from parent: String?) throws(ServiceError) {
            if order.contains(current) { return }
            if let index = visiting.firstIndex(of: current) {
                throw .dependencyCycle(Array(visiting[index...]) + [current])
            }
            guard let registration = all[current] else {
                throw .unknownDependency(current, of: parent ?? current)
            }
            visiting.append(current)
            for dependency in registration.dependencies { try visit(dependency, from: current) }
            visiting.removeLast()
            order.append(current)
        }
        for name in names { try visit(name, from: nil) }
        return order
    }

    static func name<S>(of type: S.Type) -> String { String(reflecting: type) }
}
