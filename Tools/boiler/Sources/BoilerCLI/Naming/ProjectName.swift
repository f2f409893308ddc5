/// A project name turned into the Swift module names a project uses.
///
/// `"my notes"`, `"my-notes"` and `"my_notes"` all become `MyNotes`; the app template then
/// names its library `MyNotesCore` and its executable `MyNotes`.
public struct ProjectName: Sendable, Hashable {
    /// The longest name accepted, in characters: a name becomes folder and file names (a part's
    /// test file is its name and 17 more characters), and a file name may hold 255 bytes.
    public static let maximumLength = 64

    /// What the user typed.
    public let original: String
    /// The PascalCase module name.
    public let module: String

    /// Validates `name` and derives the module name.
    /// - Throws: ``BoilerError/invalidName(_:reason:)`` or ``BoilerError/reservedName(_:module:suggestion:)``.
    public init(_ name: String) throws(BoilerError) {
        try self.init(name, maximumLength: Self.maximumLength)
    }

    /// Validates `name` against a limit of `maximumLength` characters and derives the module
    /// name: a project's record is checked against a looser limit than new names, so projects
    /// made before the limit keep working.
    init(_ name: String, maximumLength: Int) throws(BoilerError) {
        // Checked first, on the byte count, so a huge argument costs nothing.
        let tooLong = BoilerError.invalidName(name, reason: "it is longer than \(maximumLength) characters")
        guard name.utf8.count <= 4 * maximumLength else { throw tooLong }
        let trimmed = name.trimmingWhitespace
        guard trimmed.count <= maximumLength else { throw tooLong }
        guard !trimmed.isEmpty else { throw .invalidName(name, reason: "it is empty") }
        guard trimmed.unicodeScalars.allSatisfy({ $0.isASCII }) else {
            throw .invalidName(name, reason: "use ASCII letters, digits, spaces, '-' or '_'")
        }
        let words = trimmed.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == " " || $0 == "." })
        let allowed = words.allSatisfy { $0.allSatisfy { $0.isLetter || $0.isNumber } }
        guard allowed else { throw .invalidName(name, reason: "use letters, digits, spaces, '-' or '_' only") }
        let module = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = module.first, first.isLetter else {
            throw .invalidName(name, reason: "a Swift module name must start with a letter")
        }
        if let taken = ReservedNames.collision(for: module) {
            throw .reservedName(name, module: taken, suggestion: "My\(module)")
        }
        self.original = trimmed
        self.module = module
    }
}

extension String {
    var trimmingWhitespace: String {
        var result = Substring(self)
        while result.first?.isWhitespace == true { result = result.dropFirst() }
        while result.last?.isWhitespace == true { result = result.dropLast() }
        return String(result)
    }
}
