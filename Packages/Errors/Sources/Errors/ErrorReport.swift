import Foundation

/// A Codable snapshot of an error and everything it wraps, for logs and transport.
///
/// ```swift
/// let data = try JSONEncoder().encode(ErrorReport(error))
/// ```
public struct ErrorReport: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible {
    /// One error of the chain.
    public struct Entry: Sendable, Hashable, Codable {
        /// The error's type name, such as `"LoginError"`.
        public var type: String
        /// The error's own message (for a context, only what was being done).
        public var message: String
        /// The error's stable code.
        public var code: String
        /// The error's domain.
        public var domain: String
        /// Where the error was raised or wrapped, when recorded.
        public var location: SourceLocation?

        /// Creates an entry from its parts.
        public init(type: String, message: String, code: String, domain: String, location: SourceLocation?) {
            self.type = type
            self.message = message
            self.code = code
            self.domain = domain
            self.location = location
        }
    }

    /// The message for a person: the error's ``Swift/Error/userMessage``.
    public var message: String
    /// The code of the root cause, the error programs usually care about.
    public var code: String
    /// The domain of the root cause.
    public var domain: String
    /// Every error of the chain, outermost first.
    public var chain: [Entry]
    /// The innermost recorded location in the chain: closest to where things went wrong.
    public var location: SourceLocation?

    /// Takes a snapshot of `error` and its chain.
    public init(_ error: any Error) {
        chain = error.chain.map(Entry.init(describing:))
        message = error.userMessage
        let root = chain[chain.count - 1]
        code = root.code
        domain = root.domain
        location = chain.reversed().lazy.compactMap(\.location).first
    }

    /// The user message.
    public var description: String { message }

    /// One line per error of the chain, outermost first, with codes and locations.
    public var debugDescription: String {
        chain.enumerated().map { index, entry in
            let prefix = index == 0 ? "" : String(repeating: "  ", count: index - 1) + "└─ "
            let place = entry.location.map { " at \($0)" } ?? ""
            return "\(prefix)\(entry.message) [\(entry.code)]\(place)"
        }.joined(separator: "\n")
    }
}

extension ErrorReport.Entry {
    init(describing error: any Error) {
        type = String(describing: Swift.type(of: error))
        if let appError = error as? any AppError {
            message = appError.message
            code = appError.code
            domain = appError.domain
            location = appError.sourceLocation
        } else {
            message = error.userMessage
            if error.isFoundationError {
                let bridged = error as NSError
                code = "\(bridged.domain).\(bridged.code)"
                domain = bridged.domain
            } else {
                code = ErrorCode.derived(from: error)
                domain = String(reflecting: Swift.type(of: error))
            }
            location = nil
        }
    }
}
