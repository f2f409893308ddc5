/// An error that is only a message: for the many failures that need no type of their own.
///
/// ```swift
/// throw MessageError("Invalid email and password.")
/// ```
public struct MessageError: AppError, Equatable {
    /// What went wrong, in words a user can act on.
    public var message: String
    /// A stable code; `"MessageError"` unless one is given.
    public var code: String
    /// Where the error was created.
    public var sourceLocation: SourceLocation?

    /// Creates an error with a message, an optional code, and the caller's location.
    /// - Parameters:
    ///   - message: What went wrong, for a person.
    ///   - code: A stable identifier for programs; `"MessageError"` when nil.
    ///   - fileID: The file that creates the error; the caller's by default.
    ///   - line: The line that creates the error; the caller's by default.
    public init(_ message: String, code: String? = nil, fileID: String = #fileID, line: Int = #line) {
        self.message = message
        self.code = code ?? "MessageError"
        self.sourceLocation = SourceLocation(fileID: fileID, line: line)
    }

    /// Two message errors are equal when their message and code are; where they were created
    /// does not matter.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.message == rhs.message && lhs.code == rhs.code
    }
}
