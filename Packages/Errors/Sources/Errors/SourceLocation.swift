/// A place in source code: the `#fileID` and `#line` where an error was raised or wrapped.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file, as `#fileID` spells it: `"Module/File.swift"`.
    public var fileID: String
    /// The line in that file, starting at 1.
    public var line: Int

    /// Records a location; the defaults capture the caller's.
    public init(fileID: String = #fileID, line: Int = #line) {
        self.fileID = fileID
        self.line = line
    }

    /// `"Module/File.swift:12"`.
    public var description: String { "\(fileID):\(line)" }
}
