/// What `boiler add resource Tag name:String count:Int note:String?` asks for: a resource name
/// and its typed fields, checked before anything is planned.
///
/// Every name here becomes a Swift identifier, a file name and (the plural) a URL path, so each
/// is held to a narrow shape — ASCII letters and digits — rather than escaped afterwards.
public struct ResourceSpec: Sendable, Equatable, Codable {
    /// One typed field of a resource.
    public struct Field: Sendable, Equatable, Codable {
        /// The field's name, a lowerCamel Swift identifier.
        public var name: String
        /// The field's Swift type.
        public var type: FieldType
        /// Whether the field may be nil (`Type?`).
        public var optional: Bool

        /// The Swift type as written in a declaration: `String` or `String?`.
        var swiftType: String { type.rawValue + (optional ? "?" : "") }

        /// The argument form: `name:String?`.
        public var argument: String { "\(name):\(swiftType)" }
    }

    /// The types a field may have: the ones every record backend can store and query.
    public enum FieldType: String, Sendable, Equatable, Codable, CaseIterable {
        case string = "String", int = "Int", double = "Double", bool = "Bool", date = "Date", uuid = "UUID"
    }

    /// The resource's name, PascalCase and singular: `Tag`.
    public var name: String
    /// The fields, in the order given.
    public var fields: [Field]

    /// The longest name accepted; longer ones are surely a mistake and would make unwieldy files.
    static let maximumNameLength = 64

    /// Checks `name` and the `name:Type` arguments.
    /// - Parameter taken: Type names already used in the project (entities and resources), compared
    ///   without regard to case.
    /// - Throws: ``BoilerError/invalidResource(part:value:reason:)`` naming the bad argument.
    public init(name: String, fields arguments: [String], taken: Set<String> = []) throws(BoilerError) {
        try Self.checkName(name, taken: taken)
        guard !arguments.isEmpty else {
            throw .invalidResource(
                part: "fields", value: "",
                reason: "a resource needs at least one field, such as 'boiler add resource \(name) name:String'")
        }
        var fields: [Field] = []
        for argument in arguments {
            let field = try Self.field(argument)
            if fields.contains(where: { $0.name.lowercased() == field.name.lowercased() }) {
                throw .invalidResource(
                    part: "field", value: argument, reason: "the field '\(field.name)' is given twice")
            }
            fields.append(field)
        }
        self.name = name
        self.fields = fields
    }

    /// A resource boiler itself defines (the server template's `Note`), whose name and fields are
    /// boiler's own, not input, and so are not checked.
    init(builtIn name: String, fields: [Field]) {
        self.name = name
        self.fields = fields
    }

    /// The plural in lowerCamel case, naming the collection: `tags`, `categories`.
    public var plural: String { Self.plural(of: lowerCamel(name)) }

    /// The URL path segment: the plural in kebab case, `tags`, `order-lines`.
    public var pathSegment: String { Self.plural(of: PartTemplates.kebab(name)) }

    /// The first String field (optional or not): the one `?q=` searches in the list route.
    public var searchField: Field? { fields.first { $0.type == .string } }

    /// `Tag` → `tag`.
    func lowerCamel(_ text: String) -> String { text.prefix(1).lowercased() + text.dropFirst() }

    /// English plurals for identifiers: `-y` after a consonant → `-ies`; `-s`, `-x`, `-z`, `-ch`, `-sh` → `-es`.
    static func plural(of word: String) -> String {
        let lowered = word.lowercased()
        if lowered.hasSuffix("y"), let before = lowered.dropLast().last, !"aeiou".contains(before) {
            return word.dropLast() + "ies"
        }
        if ["s", "x", "z", "ch", "sh"].contains(where: { lowered.hasSuffix($0) }) { return word + "es" }
        return word + "s"
    }

    // MARK: - Checks

    static func checkName(_ name: String, taken: Set<String>) throws(BoilerError) {
        let part = "resource name"
        try checkShape(name, part: part)
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else {
            throw .invalidResource(
                part: part, value: name,
                reason: "it must be PascalCase, starting with an upper-case letter, such as '\(suggestion(name))'")
        }
        guard name.unicodeScalars.allSatisfy(isAlphanumeric) else {
            throw .invalidResource(
                part: part, value: name, reason: "use ASCII letters and digits only, in PascalCase, such as 'OrderLine'"
            )
        }
        let lowered = name.lowercased()
        if lowered.hasSuffix("s") && !["ss", "us", "is"].contains(where: { lowered.hasSuffix($0) }) {
            throw .invalidResource(
                part: part, value: name,
                reason: "it looks plural: name the resource in the singular, such as '\(name.dropLast())'; "
                    + "the routes use the plural")
        }
        if let module = ReservedNames.collision(for: name) {
            throw .invalidResource(part: part, value: name, reason: "it would collide with the module \(module)")
        }
        if let type = reservedTypes.first(where: { $0.lowercased() == lowered }) {
            throw .invalidResource(
                part: part, value: name, reason: "it would collide with the type \(type) that the project uses")
        }
        if let existing = taken.first(where: { $0.lowercased() == lowered }) {
            throw .invalidResource(
                part: part, value: name, reason: "the project already has an entity or resource named \(existing)")
        }
    }

    static func field(_ argument: String) throws(BoilerError) -> Field {
        let part = "field"
        try checkShape(argument, part: part, limit: maximumNameLength * 2)
        let pieces = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty else {
            throw .invalidResource(
                part: part, value: argument,
                reason: "write a field as name:Type, such as 'name:String' or 'note:String?'")
        }
        let name = String(pieces[0])
        var typeText = Substring(pieces[1])
        let optional = typeText.hasSuffix("?")
        if optional { typeText = typeText.dropLast() }
        guard let type = FieldType(rawValue: String(typeText)) else {
            throw .invalidResource(
                part: part, value: argument,
                reason: "the type '\(pieces[1])' is not one boiler can store: use "
                    + FieldType.allCases.map(\.rawValue).joined(separator: ", ") + ", each optionally followed by '?'")
        }
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first),
            name.unicodeScalars.allSatisfy(isAlphanumeric)
        else {
            throw .invalidResource(
                part: part, value: argument,
                reason: "the name '\(name)' must be lowerCamel ASCII letters and digits, such as 'dueDate'")
        }
        guard name.count <= maximumNameLength else {
            throw .invalidResource(
                part: part, value: argument, reason: "the name is longer than \(maximumNameLength) characters")
        }
        if swiftKeywords.contains(name) {
            throw .invalidResource(part: part, value: argument, reason: "'\(name)' is a Swift keyword")
        }
        if let reason = reservedFields[name] {
            throw .invalidResource(part: part, value: argument, reason: reason)
        }
        return Field(name: name, type: type, optional: optional)
    }

    /// Refuses what no name may hold before looking closer: emptiness, great length, line breaks
    /// and other control or format characters, path separators, non-ASCII lookalikes.
    static func checkShape(_ value: String, part: String, limit: Int = maximumNameLength) throws(BoilerError) {
        guard !value.isEmpty else { throw .invalidResource(part: part, value: value, reason: "it is empty") }
        // Counted in UTF-8 bytes so a huge argument is refused without walking its characters.
        guard value.utf8.count <= limit else {
            throw .invalidResource(part: part, value: value, reason: "it is longer than \(limit) characters")
        }
        if value.contains("/") || value.contains("\\") || value.contains("..") {
            throw .invalidResource(
                part: part, value: value, reason: "it holds a path ('/', '\\\\' or '..'); names never name folders")
        }
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || !$0.isASCII }) {
            throw .invalidResource(
                part: part, value: value,
                reason: "use ASCII letters and digits only (no line breaks, control characters or lookalike letters)")
        }
    }

    static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    static func suggestion(_ name: String) -> String {
        let letters = name.unicodeScalars.filter(isAlphanumeric).map(Character.init)
        guard let first = letters.first, first.isLetter else { return "Tag" }
        return first.uppercased() + String(letters.dropFirst())
    }

    /// Field names the generated code declares itself, with why.
    static let reservedFields: [String: String] = [
        "id": "'id' is declared by boiler: every record has a UUID id",
        "createdAt": "'createdAt' is declared by boiler: every record keeps when it was created, and lists sort by it",
        "hashValue": "'hashValue' would clash with Hashable",
        "description": "'description' would clash with CustomStringConvertible; try 'summary' or 'details'",
        "version": "'version' would clash with the record's Versioned conformance",
        "migrations": "'migrations' would clash with the record's Versioned conformance",
        "queryableFields": "'queryableFields' would clash with the record's QueryableRecord conformance",
    ]

    /// Type names a resource must not take: Swift's, Foundation's and the kit's types that the
    /// generated code mentions, and the server template's own.
    static let reservedTypes: Set<String> = [
        "Any", "AnyObject", "Array", "Bool", "Character", "Codable", "Data", "Date", "Decimal", "Decodable",
        "Dictionary", "Double", "Encodable", "Equatable", "Error", "Float", "Hashable", "Identifiable", "Int",
        "Never", "Optional", "Protocol", "Result", "Self", "Sendable", "Sequence", "Set", "String", "Substring",
        "Task", "Type", "URL", "UUID", "Void", "Application", "Bus", "Command", "Event", "Logger", "Migration",
        "Request", "Response", "RecordStore", "RecordPredicate", "QueryField", "Versioned", "Note",
        "ProblemDetails", "Heard", "Model", "Record", "Lines", "Input",
        "AppService", "ServiceRegistry", "RouteTable", "LogSink", "Subscriptions", "AsyncCommand",
        "CommandContext", "StorageError", "MessageError", "ServiceGroup", "ByteBuffer", "HTTPResponse",
        "HTTPRequest", "BasicRequestContext", "JSONEncoder", "JSONDecoder", "Test", "Suite", "Issue", "Trait",
        "AppCore", "ModelStore", "CommandRunner",
        "HTTPClient",
    ]

    /// Swift's keywords, which cannot name a property without backticks.
    static let swiftKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "as", "false", "is", "nil", "self", "super", "throws", "true", "try", "await", "async",
        "any", "some", "consume", "borrowing", "consuming", "package", "actor", "nonisolated", "isolated", "_",
    ]
}
