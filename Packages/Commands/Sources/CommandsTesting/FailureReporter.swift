#if canImport(Testing)
    import Testing
#endif

/// Where in a test an assertion was made, so a failure points at it.
public struct CallSite: Sendable, Hashable, CustomStringConvertible {
    /// `#fileID` of the assertion.
    public var fileID: String
    /// `#filePath` of the assertion.
    public var filePath: String
    /// `#line` of the assertion.
    public var line: Int
    /// `#column` of the assertion.
    public var column: Int

    /// Records a place; the defaults capture the caller's.
    public init(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// `"Module/File.swift:12"`.
    public var description: String { "\(fileID):\(line)" }
}

/// How a ``CommandTester`` reports a failed assertion.
public struct FailureReporter: Sendable {
    /// Reports `message` at `site`.
    public let report: @Sendable (_ message: String, _ site: CallSite) -> Void

    /// A reporter that calls `report`.
    public init(_ report: @escaping @Sendable (_ message: String, _ site: CallSite) -> Void) {
        self.report = report
    }

    /// Records a Swift Testing issue at the assertion, failing the current test.
    ///
    /// Where the toolchain cannot import Testing into a library (Apple's Command Line Tools
    /// without Xcode), it stops with the message instead.
    public static var testing: FailureReporter {
        FailureReporter { message, site in
            #if canImport(Testing)
                Issue.record(
                    Comment(rawValue: message),
                    sourceLocation: SourceLocation(
                        fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column))
            #else
                preconditionFailure("\(site): \(message)")
            #endif
        }
    }
}
