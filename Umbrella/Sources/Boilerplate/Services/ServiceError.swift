import Errors

/// What can go wrong when registering, starting or stopping services.
public enum ServiceError: AppError {
    /// No service is registered under this name.
    case unknownService(String, known: [String])
    /// A service depends on one that is not registered.
    case unknownDependency(String, of: String)
    /// Services depend on each other in a circle.
    case dependencyCycle([String])
    /// A service's `start` threw; it is not running.
    case startFailed(String, underlying: any Error)
    /// A service's `stop` threw; it is considered stopped.
    case stopFailed(String, underlying: any Error)
    /// A service's `run` threw (cancellation aside); the registry shut everything down.
    case runFailed(String, underlying: any Error)
    /// ``ServiceRegistry/run(stopTimeout:signals:)`` was called while it was already running.
    case alreadyRunning
    /// A shutdown left a service running past its timeout, or a service threw on the way.
    case shutdownIncomplete(ShutdownReport)

    /// What went wrong, in words a user can act on.
    public var message: String {
        switch self {
        case .unknownService(let name, let known):
            "No service is registered as '\(name)'"
                + (known.isEmpty ? "." : "; registered: \(known.joined(separator: ", ")).")
        case .unknownDependency(let dependency, let service):
            "Service '\(service)' depends on '\(dependency)', which is not registered."
        case .dependencyCycle(let names):
            "Services depend on each other in a circle: \(names.joined(separator: " → "))."
        case .startFailed(let name, let underlying):
            "Service '\(name)' failed to start: \(underlying.userMessage)"
        case .stopFailed(let name, let underlying):
            "Service '\(name)' failed to stop: \(underlying.userMessage)"
        case .runFailed(let name, let underlying):
            "Service '\(name)' failed while running: \(underlying.userMessage)"
        case .alreadyRunning:
            "The services are already running; call run() once at a time."
        case .shutdownIncomplete(let report):
            report.summary
        }
    }

    /// The error a service's `start` or `stop` threw.
    public var underlyingError: (any Error)? {
        switch self {
        case .startFailed(_, let underlying), .stopFailed(_, let underlying), .runFailed(_, let underlying): underlying
        default: nil
        }
    }
}
