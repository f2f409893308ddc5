import Foundation

extension Error {
    /// A message for a person, for any error.
    ///
    /// ``AppError``s give their ``AppError/message`` (a ``ContextError`` prefixes what was
    /// being done), `LocalizedError`s their `errorDescription`, decoding errors say which key
    /// and where, Foundation errors their `localizedDescription`, and anything else its
    /// description.
    public var userMessage: String {
        switch self {
        case let error as ContextError: return "\(error.message): \(error.underlying.userMessage)"
        case let error as any AppError: return error.message
        case is CancellationError: return "The operation was cancelled."
        case let error as DecodingError: return error.readableMessage
        case let error as EncodingError: return error.readableMessage
        case let error as any LocalizedError:
            if let description = error.errorDescription { return description }
        default: break
        }
        if isFoundationError { return (self as NSError).localizedDescription }
        return String(describing: self)
    }

    /// This error followed by every error it wraps, outermost first and the root cause last.
    ///
    /// Wrapping is read from ``AppError/underlyingError`` and from `NSUnderlyingErrorKey`.
    /// The walk stops after 64 layers, so a cyclic chain cannot hang it.
    public var chain: [any Error] {
        var errors: [any Error] = [self]
        while errors.count < 64, let next = errors[errors.count - 1].wrappedError {
            errors.append(next)
        }
        return errors
    }

    /// The original error at the bottom of ``chain``; the error itself when it wraps nothing.
    public var rootCause: any Error { chain[chain.count - 1] }

    /// A Codable snapshot of this error and its chain, for logs and transport.
    public var report: ErrorReport { ErrorReport(self) }

    /// The error this one wraps, if any.
    var wrappedError: (any Error)? {
        if let appError = self as? any AppError { return appError.underlyingError }
        guard isFoundationError else { return nil }
        return (self as NSError).userInfo[NSUnderlyingErrorKey] as? any Error
    }

    /// Whether this is a genuine `NSError` (or a Foundation error struct) rather than a Swift
    /// error that would only be bridged on demand.
    var isFoundationError: Bool {
        if self is CocoaError || self is URLError { return true }
        return type(of: self) is NSError.Type
    }
}
