/// Turns design names into Swift identifiers: characters that cannot be in one dropped with
/// camel case, a leading digit prefixed with `_`, reserved words back-ticked; and makes text
/// safe to print in comments.
///
/// The mapping accepts only what the Swift grammar allows in an identifier and is also a
/// letter, mark or digit: format characters (bidirectional overrides, zero-width joiners) and
/// symbols are separators, and a name holding a control or format character, or a line or
/// paragraph separator, is refused outright.
enum SwiftNames {
    /// Words that need back-ticks to be used as names.
    static let reserved: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "as", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Any", "Type",
        "Protocol", "await", "async", "consume", "copy", "discard", "borrowing", "consuming", "some", "any",
        "package", "actor", "nonisolated", "macro", "each", "then",
    ]

    /// Type names no generated type may take: reserved words that stay special even
    /// back-ticked, and the types and modules generated code refers to, which it would shadow.
    static let forbiddenTypeNames: Set<String> = [
        "Self", "Any", "Type", "Protocol", "CodingKeys", "CodingKey", "Codable", "Decodable", "Encodable", "Decoder",
        "Encoder", "Sendable", "Hashable", "Hasher", "Equatable", "CaseIterable", "String", "Int", "Int16", "Int32",
        "Int64", "Double", "Float", "Bool", "Decimal", "Data", "Date", "URL", "UUID", "Optional", "Array",
        "Dictionary", "Set", "Error", "Never", "Void", "Foundation", "Serialization", "Versioned", "Migration",
        "Swift",
    ]

    /// Member names the generated code already uses (or that a stored property would turn
    /// into a different protocol requirement).
    static let forbiddenMemberNames: Set<String> = [
        "init", "modelVersionHash", "self", "Self", "Type", "Protocol", "CodingKeys", "hashValue",
    ]

    /// The longest name accepted, in UTF-8 bytes: file names (`_Name.swift`) must stay under
    /// the 255 bytes file systems allow.
    static let maximumLength = 200

    /// Whether `scalar` may start a Swift identifier, as mapped: `_`, an ASCII letter, or a
    /// letter the Swift grammar accepts in that position.
    static func isHead(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        }
        guard isInGrammarHeadRanges(scalar.value) else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .letterNumber:
            return true
        default:
            return false
        }
    }

    /// Whether `scalar` may continue a Swift identifier, as mapped: a head, an ASCII digit, or
    /// a combining mark or decimal digit the grammar accepts after the first character.
    static func isBody(_ scalar: Unicode.Scalar) -> Bool {
        if isHead(scalar) { return true }
        if scalar.isASCII { return ("0"..."9").contains(scalar) }
        let value = scalar.value
        let combining =
            (0x300...0x36F).contains(value) || (0x1DC0...0x1DFF).contains(value) || (0x20D0...0x20FF).contains(value)
            || (0xFE20...0xFE2F).contains(value)
        guard combining || isInGrammarHeadRanges(value) else { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber: return true
        default: return false
        }
    }

    /// The ranges "The Swift Programming Language" lists for identifier-head beyond ASCII.
    private static func isInGrammarHeadRanges(_ value: UInt32) -> Bool {
        switch value {
        case 0xA8, 0xAA, 0xAD, 0xAF, 0xB2...0xB5, 0xB7...0xBA, 0xBC...0xBE, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF,
            0x100...0x2FF, 0x370...0x167F, 0x1681...0x180D, 0x180F...0x1DBF, 0x1E00...0x1FFF, 0x200B...0x200D,
            0x202A...0x202E, 0x203F...0x2040, 0x2054, 0x2060...0x206F, 0x2070...0x20CF, 0x2100...0x218F,
            0x2460...0x24FF, 0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF, 0x3004...0x3007, 0x3021...0x302F,
            0x3031...0x303F, 0x3040...0xD7FF, 0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE1F, 0xFE30...0xFE44,
            0xFE47...0xFFFD:
            return true
        case 0x10000...0xEFFFD:
            return value & 0xFFFF <= 0xFFFD
        default:
            return false
        }
    }

    /// Whether `name` holds a character no name may: a control or format character (line
    /// breaks, bidirectional overrides, zero-width characters) or a line or paragraph separator.
    static func hasForbiddenCharacter(_ name: String) -> Bool {
        name.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate: true
            default: false
            }
        }
    }

    /// Whether `identifier` is exactly a Swift identifier the mapping could produce.
    static func isIdentifier(_ identifier: String) -> Bool {
        guard let first = identifier.unicodeScalars.first, isHead(first) else { return false }
        return identifier.unicodeScalars.dropFirst().allSatisfy(isBody) && identifier.contains { $0 != "_" }
    }

    /// The bare identifier for `name` (without back-ticks), or nil when nothing usable remains
    /// or the name holds a forbidden character or is too long.
    /// - Parameter upper: Whether the first letter must be upper case (type names).
    static func identifier(for name: String, upper: Bool) -> String? {
        guard !hasForbiddenCharacter(name), name.utf8.count <= maximumLength else { return nil }
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            if current.isEmpty ? isHead(scalar) || isBody(scalar) && !isMark(scalar) : isBody(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        guard var result = words.first else { return nil }
        for word in words.dropFirst() { result += capitalized(word) }
        if upper { result = capitalized(result) }
        if let first = result.unicodeScalars.first, !isHead(first) { result = "_" + result }
        // Case mapping can produce characters of other classes; the result must still be one.
        return isIdentifier(result) ? result : nil
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// `word` with its first character upper-cased, when that is a lower-case letter.
    private static func capitalized(_ word: String) -> String {
        guard let first = word.first, first.isLowercase else { return word }
        return first.uppercased() + word.dropFirst()
    }

    /// Whether `name` is a module or protocol name as written: identifiers joined by dots
    /// (`Combine`, `Foundation.NSObject`), none of them a reserved word.
    static func isQualifiedName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.allSatisfy { isIdentifier(String($0)) && !reserved.contains(String($0)) }
            && name.utf8.count <= maximumLength
    }

    /// `name` as written in source: back-ticked when it is a reserved word.
    static func escaped(_ identifier: String) -> String {
        reserved.contains(identifier) ? "`\(identifier)`" : identifier
    }

    /// `text` safe inside `//`, `///` and `/* */` comments: line breaks, control and format
    /// characters appear as escapes (`\n`, `\u{202e}`), and `/*` and `*/` are broken up by a
    /// space so they neither open nor close a block comment.
    static func commentText(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if (previous == "/" && scalar == "*") || (previous == "*" && scalar == "/") { result.append(" ") }
            switch scalar {
            case "\n": result.append(contentsOf: "\\n".unicodeScalars)
            case "\r": result.append(contentsOf: "\\r".unicodeScalars)
            case "\t": result.append(contentsOf: "\\t".unicodeScalars)
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate:
                    result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
                default:
                    result.append(scalar)
                }
            }
            previous = scalar
        }
        return String(result)
    }
}
