import _KitSupport

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
        /// The value a record takes when its creator does not give the field (`done:Bool=false`),
        /// as checked text: `true`/`false`, a whole number, a finite number, or printable ASCII
        /// text without quotes, backslashes or `{{`. nil when the field must be given (or, for an
        /// optional field, starts as nil).
        public var defaultValue: String? = nil
        /// The field's doc comment in the files, for a resource boiler defines itself (`Note`);
        /// nil for "The <name>.". Not recorded: an added resource's fields are described by name.
        var summary: String? = nil

        enum CodingKeys: String, CodingKey {
            case name, type, optional
            case defaultValue = "default"
        }

        /// The Swift type as written in a declaration: `String` or `String?`.
        var swiftType: String { type.rawValue + (optional ? "?" : "") }

        /// The argument form: `name:String?`, `done:Bool=false`.
        public var argument: String { "\(name):\(swiftType)" + (defaultValue.map { "=\($0)" } ?? "") }

        /// The default as a Swift expression (`false`, `0`, `1.5`, `"Untitled"`), or nil.
        var defaultLiteral: String? {
            guard let defaultValue else { return nil }
            return type == .string ? SwiftSource.literal(defaultValue) : defaultValue
        }

        /// The default as JSON (`false`, `0`, `1.5`, `"Untitled"`), or nil.
        var defaultJSON: String? { defaultLiteral }
    }

    /// The types a field may have: the ones every record backend can store and query.
    public enum FieldType: String, Sendable, Equatable, Codable, CaseIterable {
        case string = "String", int = "Int", double = "Double", bool = "Bool", date = "Date", uuid = "UUID"
    }

    /// The resource's name, PascalCase and singular: `Tag`.
    public var name: String
    /// The fields, in the order given.
    public var fields: [Field]
    /// Whether the resource is kept in step with a server (`boiler add resource … --synced`, app
    /// projects only): its records live in a `SyncedRecordStore` that a `SyncEngine` syncs. nil
    /// (not written to `.boiler.json`) for a plain resource, so records made before it read the same.
    public var synced: Bool? = nil

    /// Whether ``synced`` is set.
    var isSynced: Bool { synced == true }

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

    /// The longest default a field may have, in characters.
    static let maximumDefaultLength = 200

    static func field(_ argument: String) throws(BoilerError) -> Field {
        let part = "field"
        // Counted in UTF-8 bytes so a huge argument is refused without walking its characters.
        guard argument.utf8.count <= maximumNameLength * 2 + 1 + maximumDefaultLength else {
            throw .invalidResource(
                part: part, value: argument,
                reason: "it is longer than \(maximumNameLength * 2 + 1 + maximumDefaultLength) characters")
        }
        // `name:Type=default`: the default is checked on its own, as a value, not as a name.
        let declaration: Substring
        let defaultText: Substring?
        if let equals = argument.firstIndex(of: "=") {
            declaration = argument[..<equals]
            defaultText = argument[argument.index(after: equals)...]
        } else {
            declaration = Substring(argument)
            defaultText = nil
        }
        do {
            try checkShape(String(declaration), part: part, limit: maximumNameLength * 2)
        } catch {
            // Named by the whole argument, as typed.
            guard case .invalidResource(_, _, let reason) = error else { throw error }
            throw .invalidResource(part: part, value: argument, reason: reason)
        }
        let pieces = declaration.split(separator: ":", omittingEmptySubsequences: false)
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
        var field = Field(name: name, type: type, optional: optional)
        if let defaultText {
            do {
                field.defaultValue = try checkedDefault(String(defaultText), of: field)
            } catch {
                throw .invalidResource(part: part, value: argument, reason: "the default of '\(name)' \(error.reason)")
            }
        }
        return field
    }

    /// Why a default cannot be used, in words that follow "the default of 'name'".
    struct DefaultRefusal: Error {
        var reason: String
    }

    /// `text` as the checked default of `field`, in its one canonical spelling (`7`, not `+07`).
    static func checkedDefault(_ text: String, of field: Field) throws(DefaultRefusal) -> String {
        let shown = BoilerError.shown(text)
        if field.optional {
            throw DefaultRefusal(
                reason: "cannot be given: an optional field starts as nil; drop the '?' or the default")
        }
        switch field.type {
        case .bool:
            guard text == "true" || text == "false" else {
                throw DefaultRefusal(reason: "is \(shown), which is not a Bool: write true or false")
            }
            return text
        case .int:
            guard let value = Int(text) else {
                throw DefaultRefusal(reason: "is \(shown), which is not an Int: write a whole number such as 0 or -5")
            }
            return String(value)
        case .double:
            // Digits, one sign, a point and an exponent only: no `nan`, `inf` or hex.
            let allowed = Set("0123456789+-.eE")
            guard text.allSatisfy({ allowed.contains($0) }), let value = Double(text), value.isFinite else {
                throw DefaultRefusal(reason: "is \(shown), which is not a finite Double: write a number such as 1.5")
            }
            return "\(value)"
        case .string:
            guard text.count <= maximumDefaultLength else {
                throw DefaultRefusal(reason: "is longer than \(maximumDefaultLength) characters")
            }
            guard text.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else {
                throw DefaultRefusal(
                    reason: "is \(shown): use printable ASCII only (no line breaks, control characters or "
                        + "lookalike letters)")
            }
            if let bad = ["\"", "\\", "`"].first(where: text.contains) {
                throw DefaultRefusal(
                    reason:
                        "is \(shown), which holds '\(bad)': a default is plain text, without quotes, backticks or backslashes"
                )
            }
            if text.contains("{{") || text.contains("}}") {
                throw DefaultRefusal(reason: "is \(shown), which looks like a template tag ('{{' or '}}')")
            }
            guard !text.allSatisfy(\.isWhitespace) else {
                throw DefaultRefusal(
                    reason: "is blank, which the field's own check refuses: a text field must not be blank")
            }
            return text
        case .date, .uuid:
            throw DefaultRefusal(
                reason: "cannot be given: a \(field.type.rawValue) field takes no default (a fixed date or id would be "
                    + "shared by every record); make it optional, or give it when creating")
        }
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
        "revision": "'revision' is declared by boiler: every record keeps its revision for the sync protocol",
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
        // The sync routes' types (`Sync` would make `SyncRoutes`) and the sync tests' own.
        "Sync", "SyncHeader", "RevisionedRecord", "RecordStoreError", "FeedEntry", "FeedPage", "SyncConflict",
        "SyncWrite", "SyncWriteRefused", "SyncAccess", "SyncAccessError", "SyncRefusal",
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
