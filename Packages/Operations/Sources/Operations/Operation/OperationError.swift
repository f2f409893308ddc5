import Errors

/// The errors an operation itself raises, on top of those its work throws.
public enum OperationError: AppError, Equatable {
    /// The operation did not finish before its time limit.
    case timedOut(after: Duration)
    /// The operation did not finish before its deadline.
    case deadlineExceeded
    /// A validator refused the result, so the chain stopped; the text says what was refused.
    case validationFailed(String)

    /// What went wrong, in words a user can act on.
    public var message: String {
        switch self {
        case .timedOut(let duration): "The operation timed out after \(duration)."
        case .deadlineExceeded: "The operation did not finish before its deadline."
        case .validationFailed(let reason): "The result was not accepted: \(reason)."
        }
    }
}
