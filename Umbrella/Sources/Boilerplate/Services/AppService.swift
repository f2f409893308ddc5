/// A long-lived part of an app that starts and stops: network monitoring, sync, location, a
/// server's listener… (iStructure's services, as a protocol).
///
/// ```swift
/// final class NetworkStateService: AppService {
///     let bus: Bus
///     init(bus: Bus) { self.bus = bus }
///     func start(options: [String: any Sendable]) async throws { … }
///     func stop() async throws {}
/// }
/// ```
///
/// A service with long-running work also implements ``run()``: ``ServiceRegistry/run(stopTimeout:signals:)``
/// calls it after every service has started, and on shutdown calls ``stop()`` and then cancels
/// it. Services that only start and stop leave ``run()`` out.
///
/// The protocol is named `AppService`, not `Service`, so that a server which also imports
/// swift-service-lifecycle can write `Service` for that package's protocol without a module prefix.
public protocol AppService: AnyObject, Sendable {
    /// Starts the service; `options` are what ``ServiceRegistry/start(_:options:)-(String,_)`` was given.
    func start(options: [String: any Sendable]) async throws

    /// The service's long-running work, run by ``ServiceRegistry/run(stopTimeout:signals:)`` once
    /// every service has started.
    ///
    /// Return when the work is done (the service stays started until it is stopped), or throw to
    /// make the registry shut everything down. On shutdown the registry calls ``stop()`` first and
    /// then cancels this method's task, so a loop should end when `Task.isCancelled` (or when
    /// ``stop()`` tells it to), and ``stop()`` must not wait for this method to return.
    /// The default implementation returns at once.
    func run() async throws

    /// Stops the service and releases what it holds.
    func stop() async throws
}

extension AppService {
    /// Nothing to run: the service does its work in ``start(options:)`` and ``stop()``.
    public func run() async throws {}
}
