/// A long-lived part of an app that starts and stops: network monitoring, sync, location…
/// (iStructure's services, as a protocol).
///
/// ```swift
/// final class NetworkStateService: Service {
///     let bus: Bus
///     init(bus: Bus) { self.bus = bus }
///     func start(options: [String: any Sendable]) async throws { … }
///     func stop() async throws {}
/// }
/// ```
public protocol Service: AnyObject, Sendable {
    /// Starts the service; `options` are what ``ServiceRegistry/start(_:options:)-(String,_)`` was given.
    func start(options: [String: any Sendable]) async throws
    /// Stops the service and releases what it holds.
    func stop() async throws
}
