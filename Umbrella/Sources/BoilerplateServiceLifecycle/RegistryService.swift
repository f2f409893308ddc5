// The bridge between the kit's services and swift-service-lifecycle. A separate product so that
// the umbrella, which iOS apps link, does not depend on swift-service-lifecycle.
import Boilerplate
import Foundation
import Logging
import ServiceLifecycle

/// A `ServiceRegistry` as one swift-service-lifecycle `Service`, to run inside a
/// `ServiceGroup` beside a server's other services.
///
/// ```swift
/// let group = ServiceGroup(
///     services: [app.services.lifecycleService(stopTimeout: .seconds(5)), httpServer],
///     gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
/// try await group.run()
/// ```
///
/// `run()` starts every registered service and runs them (`ServiceRegistry.run(stopTimeout:signals:)`,
/// trapping no signals: the group handles them). The group's graceful shutdown stops them in
/// reverse dependency order, each within its timeout, and so does cancellation. A shutdown that
/// is not clean — a service timed out or threw — ends `run()` with
/// `ServiceError.shutdownIncomplete(_:)` carrying the report.
public struct RegistryService: Service {
    /// The registry it runs.
    public let registry: ServiceRegistry
    /// How long each service may take to stop, unless it was registered with its own timeout.
    public let stopTimeout: Duration

    /// A lifecycle service running `registry`.
    public init(_ registry: ServiceRegistry, stopTimeout: Duration = .seconds(10)) {
        self.registry = registry
        self.stopTimeout = stopTimeout
    }

    /// Runs the registry until the group shuts down gracefully or is cancelled.
    /// - Throws: What the registry's `run` throws (a start that failed), or
    ///   `ServiceError.shutdownIncomplete(_:)`.
    public func run() async throws {
        let registry = registry
        let stopTimeout = stopTimeout
        let report = try await withGracefulShutdownHandler {
            try await registry.run(stopTimeout: stopTimeout, signals: [])
        } onGracefulShutdown: {
            registry.requestShutdown()
        }
        guard report.isClean else { throw ServiceError.shutdownIncomplete(report) }
    }
}

extension ServiceRegistry {
    /// The registry as one swift-service-lifecycle `Service` (see ``RegistryService``).
    public func lifecycleService(stopTimeout: Duration = .seconds(10)) -> RegistryService {
        RegistryService(self, stopTimeout: stopTimeout)
    }

    /// Registers a swift-service-lifecycle `Service` under `name`, to start, run and stop with
    /// the kit's services, after its dependencies.
    ///
    /// ```swift
    /// services.register("http", dependsOn: ["database"]) { HTTPServer(port: 8080) }
    /// ```
    ///
    /// Its `run()` runs inside a `ServiceGroup` of its own while the registry runs, so that
    /// stopping it is a graceful shutdown (`gracefulShutdown()`, `withGracefulShutdownHandler`
    /// and `cancelOnGracefulShutdown()` work as in any group); it is cancelled only when it
    /// overruns its stop timeout. Returning from `run()` early is not an error.
    /// - Parameters:
    ///   - name: The name it is started and stopped by.
    ///   - dependencies: Names of services that must run before it starts.
    ///   - stopTimeout: How long a shutdown waits for it; nil uses the timeout `run` was given.
    ///   - logger: The logger of its service group.
    ///   - factory: Makes the service; called on each start after a stop.
    public func register(
        _ name: String, dependsOn dependencies: [String] = [], stopTimeout: Duration? = nil,
        logger: Logger = Logger(label: "Boilerplate.Services"),
        lifecycleService factory: @escaping @Sendable () -> any Service
    ) {
        register(name, dependsOn: dependencies, stopTimeout: stopTimeout) {
            LifecycleServiceAdapter(factory(), name: name, logger: logger)
        }
    }
}

/// A swift-service-lifecycle `Service` as an `AppService`: `run()` runs it in a
/// service group of its own, `stop()` shuts that group down gracefully and waits for it.
final class LifecycleServiceAdapter: AppService {
    private let group: ServiceGroup
    private let running = LockedTask()

    init(_ service: any Service, name: String, logger: Logger) {
        group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)
                ], logger: logger))
    }

    func start(options: [String: any Sendable]) async throws {}

    func run() async throws {
        let task = Task { [group] in try await group.run() }
        running.set(task)
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    func stop() async throws {
        // Remembered by the group when its run has not begun yet.
        await group.triggerGracefulShutdown()
        _ = await running.get()?.result
    }
}

/// The task running a group, once there is one.
private final class LockedTask: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Void, any Error>?
    func set(_ task: Task<Void, any Error>) { lock.withLock { self.task = task } }
    func get() -> Task<Void, any Error>? { lock.withLock { task } }
}
