/// Many errors at once, such as every problem found while validating a form.
///
/// Its ``message`` lists them all, one per line:
/// ```swift
/// var problems = ErrorList()
/// if email.isEmpty { problems.append(MessageError("Enter an email address.")) }
/// if password.count < 8 { problems.append(MessageError("The password is too short.")) }
/// try problems.throwIfNotEmpty()   // "2 errors:\n- Enter an email address.\n- The password is too short."
/// ```
public struct ErrorList: AppError, RandomAccessCollection {
    /// The errors, in the order they were added. Nested lists are flattened.
    public private(set) var errors: [any Error]

    /// Creates a list of `errors`, flattening any that are lists themselves.
    public init(_ errors: [any Error] = []) {
        self.errors = []
        for error in errors { append(error) }
    }

    /// Adds an error; the errors of an ``ErrorList`` are added one by one.
    public mutating func append(_ error: any Error) {
        if let list = error as? ErrorList {
            errors.append(contentsOf: list.errors)
        } else {
            errors.append(error)
        }
    }

    /// Throws this list when it holds at least one error.
    /// - Throws: `self`, unless it is empty.
    public func throwIfNotEmpty() throws(ErrorList) {
        if !errors.isEmpty { throw self }
    }

    /// The only error's message, or a count followed by every message on its own line.
    public var message: String {
        switch errors.count {
        case 0: "No errors."
        case 1: errors[0].userMessage
        default: "\(errors.count) errors:\n" + errors.map { "- \($0.userMessage)" }.joined(separator: "\n")
        }
    }

    /// `"ErrorList"`.
    public var code: String { "ErrorList" }

    /// The position of the first error.
    public var startIndex: Int { errors.startIndex }
    /// The position after the last error.
    public var endIndex: Int { errors.endIndex }
    /// The error at `position`.
    public subscript(position: Int) -> any Error { errors[position] }
}
