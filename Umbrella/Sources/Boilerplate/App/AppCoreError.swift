import Errors

/// What can go wrong in ``AppCore`` itself (commands, services and storage throw their own errors).
public enum AppCoreError: AppError {
    /// The model could not be saved, so the change was rolled back: the model, the undo
    /// history and the file are as they were before it, and nothing was published.
    case saveFailed(file: String, underlying: any Error)
    /// The saved model could not be loaded; it was left where it is (moved aside if corrupt).
    case loadFailed(file: String, underlying: any Error)

    /// What went wrong, in words a user can act on.
    public var message: String {
        switch self {
        case .saveFailed(let file, let underlying):
            "The change was not applied because it could not be saved to \(file): \(underlying.userMessage)"
        case .loadFailed(let file, let underlying):
            "The saved model in \(file) could not be loaded: \(underlying.userMessage)"
        }
    }

    /// The storage error behind this one.
    public var underlyingError: (any Error)? {
        switch self {
        case .saveFailed(_, let underlying), .loadFailed(_, let underlying): underlying
        }
    }
}
