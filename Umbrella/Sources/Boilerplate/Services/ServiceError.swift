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
        }
    }

    /// The error a service's `start` or `stop` threw.
    public var underlyingError: (any Error)? {
        switch self {
        case .startFailed(_, let underlying), .stopFailed(_, let underlying): underlying
        default: nil
        }
    }
}
