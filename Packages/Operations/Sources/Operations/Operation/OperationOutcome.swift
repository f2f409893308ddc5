/// How an operation ended: with a value, with an error, or cancelled.
///
/// `onFinish` receives it, and ``StatefulOperation/outcome`` returns it.
public enum OperationOutcome<Output: Sendable, Failure: Error>: Sendable {
    /// The work returned a value.
    case succeeded(Output)
    /// The work threw an error.
    case failed(Failure)
    /// The operation was cancelled before its work returned, or its work threw `CancellationError`.
    case cancelled

    /// The value, when the operation succeeded.
    public var value: Output? {
        if case .succeeded(let value) = self { return value }
        return nil
    }

    /// The error, when the operation failed.
    public var error: Failure? {
        if case .failed(let error) = self { return error }
        return nil
    }

    /// Whether the operation was cancelled.
    public var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// The same outcome with its value and error type-erased, as shared callbacks see it.
    public var erased: OperationOutcome<any Sendable, any Error> {
        switch self {
        case .succeeded(let value): .succeeded(value)
        case .failed(let error): .failed(error)
        case .cancelled: .cancelled
        }
    }

    /// The kind of ending, without the payload.
    var kind: FinishKind {
        switch self {
        case .succeeded: .succeeded
        case .failed: .failed
        case .cancelled: .cancelled
        }
    }
}

/// How an operation ended, without its value or error: what a runner needs to decide on dependents.
enum FinishKind: Sendable {
    case succeeded, failed, cancelled
}
