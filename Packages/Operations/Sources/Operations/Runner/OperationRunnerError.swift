import Errors

/// Why an ``OperationRunner`` refused an operation or a setting. Nothing was started.
public enum OperationRunnerError: AppError, Equatable {
    /// The operation was already added to this runner.
    case alreadyAdded(operation: String)
    /// The operation already started, or belongs to another runner.
    case alreadyStarted(operation: String)
    /// The operation already finished or was cancelled, so it cannot run again.
    case alreadyFinished(operation: String)
    /// The dependency would close a cycle; the path lists the operations, first and last equal.
    case dependencyCycle(path: [String])
    /// The operation is not waiting in this runner, so it cannot gain a dependency.
    case notPending(operation: String)
    /// A concurrency limit below 1.
    case invalidConcurrencyLimit(Int)

    /// What went wrong, in words a user can act on.
    public var message: String {
        switch self {
        case .alreadyAdded(let name): "“\(name)” was already added to this runner."
        case .alreadyStarted(let name): "“\(name)” already started or belongs to another runner."
        case .alreadyFinished(let name): "“\(name)” already finished or was cancelled; create a new operation."
        case .dependencyCycle(let path):
            "The dependency would create a cycle: \(path.joined(separator: " → ")); nothing was added."
        case .notPending(let name): "“\(name)” is not waiting in this runner, so it cannot gain a dependency."
        case .invalidConcurrencyLimit(let limit): "The concurrency limit must be at least 1, not \(limit)."
        }
    }
}
