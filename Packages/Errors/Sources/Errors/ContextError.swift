/// An error wrapped with a description of what was being done when it happened.
///
/// Created by ``Swift/Error/context(_:fileID:line:)``; its ``userMessage`` reads
/// `"<what was being done>: <the underlying message>"`, and its ``debugDescription`` prints
/// the whole chain with the places each layer was added.
public struct ContextError: AppError, CustomDebugStringConvertible {
    /// What was being done, such as `"Loading profile"`.
    public var message: String
    /// The error that happened while doing it.
    public var underlying: any Error
    /// Where the context was added.
    public var location: SourceLocation

    /// Wraps `underlying` with a description of what was being done.
    public init(_ message: String, underlying: any Error, location: SourceLocation) {
        self.message = message
        self.underlying = underlying
        self.location = location
    }

    /// `"ContextError"`: a context keeps the code of no particular error; see ``rootCause``.
    public var code: String { "ContextError" }

    /// The wrapped error.
    public var underlyingError: (any Error)? { underlying }

    /// Where the context was added.
    public var sourceLocation: SourceLocation? { location }

    /// The original error at the bottom of the chain.
    public var rootCause: any Error { (self as any Error).rootCause }

    /// The context and the underlying message: `"Loading profile: File not found."`.
    ///
    /// This is also what `localizedDescription` and bridged `NSError`s show.
    public var errorDescription: String? { "\(message): \(underlying.userMessage)" }

    /// The chain, outermost first, one line per error with its code and location.
    public var debugDescription: String { ErrorReport(self).debugDescription }
}

extension Error {
    /// Wraps this error with a description of what was being done, recording where.
    ///
    /// ```swift
    /// do { try readProfileFile() }
    /// catch { throw error.context("Loading profile") }
    /// ```
    /// - Parameters:
    ///   - message: What was being done, such as `"Loading profile"`.
    ///   - fileID: The file adding the context; the caller's by default.
    ///   - line: The line adding the context; the caller's by default.
    /// - Returns: A ``ContextError`` whose ``ContextError/underlying`` is this error.
    public func context(_ message: String, fileID: String = #fileID, line: Int = #line) -> ContextError {
        ContextError(message, underlying: self, location: SourceLocation(fileID: fileID, line: line))
    }
}

/// Runs `body`, wrapping any error it throws with `message` and the caller's location.
///
/// ```swift
/// let profile = try withContext("Loading profile") { try readProfileFile() }
/// ```
/// - Parameters:
///   - message: What `body` does, such as `"Loading profile"`.
///   - fileID: The caller's file, recorded in the context.
///   - line: The caller's line, recorded in the context.
///   - body: The work to run.
/// - Returns: What `body` returns.
public func withContext<T, Failure: Error>(
    _ message: String, fileID: String = #fileID, line: Int = #line, _ body: () throws(Failure) -> T
) throws(ContextError) -> T {
    do {
        return try body()
    } catch {
        throw error.context(message, fileID: fileID, line: line)
    }
}

/// Runs async `body`, wrapping any error it throws with `message` and the caller's location.
/// - Parameters:
///   - message: What `body` does, such as `"Syncing notes"`.
///   - fileID: The caller's file, recorded in the context.
///   - line: The caller's line, recorded in the context.
///   - isolation: The actor `body` runs on; the caller's by default.
///   - body: The work to run.
/// - Returns: What `body` returns.
public func withContext<T, Failure: Error>(
    _ message: String, fileID: String = #fileID, line: Int = #line,
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws(Failure) -> T
) async throws(ContextError) -> T {
    do {
        return try await body()
    } catch {
        throw error.context(message, fileID: fileID, line: line)
    }
}
