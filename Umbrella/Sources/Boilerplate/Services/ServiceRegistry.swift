import Errors
import Foundation

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
        var factory: @Sendable () -> any Service
    }

    private let registrations = Locked<[String: Registration]>([:])
    private let lifecycle = ServiceLifecycle()

    /// An empty registry.
    public init() {}

    /// Registers a factory under `name`, replacing any earlier registration of that name.
    ///
    /// A running instance made by an earlier factory keeps running until it is stopped.
    /// - Parameters:
    ///   - name: The name services are started and stopped by.
    ///   - dependencies: Names of services that must run before this one starts.
    ///   - factory: Makes the service; called on each start after a stop.
    public func register(
        _ name: String, dependsOn dependencies: [String] = [], _ factory: @escaping @Sendable () -> any Service
    ) {
        registrations.withLock { $0[name] = Registration(dependencies: dependencies, factory: factory) }
    }

    /// Registers a factory under the type's name; start and stop it by type.
    public func register<S: Service>(
        _ type: S.Type, dependsOn dependencies: [String] = [], _ factory: @escaping @Sendable () -> S
    ) {
        register(Self.name(of: type), dependsOn: dependencies) { factory() }
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
    public func start<S: Service>(_ type: S.Type, options: [String: any Sendable] = [:]) async throws {
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
    public func stop<S: Service>(_ type: S.Type) async throws { try await stop(Self.name(of: type)) }

    /// Stops every running service, dependents before their dependencies.
    public func stopAll() async throws {
        try await lifecycle.stopAll()
    }

    /// Whether `name` is running.
    public func isRunning(_ name: String) async -> Bool { await lifecycle.isRunning(name) }

    /// The running instance registered under `name`, if it is running and of type `S`.
    public func service<S: Service>(_ name: String, as type: S.Type = S.self) async -> S? {
        await lifecycle.instance(name) as? S
    }

    /// The running instance registered for `type`.
    public func service<S: Service>(_ type: S.Type) async -> S? { await service(Self.name(of: type), as: type) }

    /// The names of the running services, in the order they started.
    public var running: [String] { get async { await lifecycle.startedOrder } }

    /// Dependencies first, `name` last; each service once.
    func startOrder(for name: String) throws(ServiceError) -> [String] {
        let all = registrations.withLock { $0 }
        guard all[name] != nil else { throw .unknownService(name, known: all.keys.sorted()) }
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
        try visit(name, from: nil)
        return order
    }

    static func name<S>(of type: S.Type) -> String { String(reflecting: type) }
}
