/// Turns design names into Swift identifiers: invalid characters dropped with camel case, a
/// leading digit prefixed with `_`, reserved words back-ticked.
enum SwiftNames {
    /// Words that need back-ticks to be used as names.
    static let reserved: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "as", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Any", "Type",
        "Protocol", "await", "async", "consume", "copy", "discard", "borrowing", "consuming", "some", "any",
    ]

    /// Type names no struct may take, even back-ticked.
    static let forbiddenTypeNames: Set<String> = ["Self", "Any", "Type", "Protocol", "CodingKeys"]

    /// Member names the generated code already uses.
    static let forbiddenMemberNames: Set<String> = ["init", "modelVersionHash", "self", "Type", "Protocol"]

    private static func isHead(_ character: Character) -> Bool {
        character == "_" || character.isLetter
    }

    private static func isBody(_ character: Character) -> Bool {
        isHead(character) || character.isNumber
    }

    /// The bare identifier for `name` (without back-ticks), or nil when nothing usable remains.
    /// - Parameter upper: Whether the first letter must be upper case (type names).
    static func identifier(for name: String, upper: Bool) -> String? {
        var words: [String] = []
        var current = ""
        for character in name {
            if isBody(character) && (character.isASCII || character.isLetter || character.isNumber) {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        guard var result = words.first else { return nil }
        for word in words.dropFirst() { result += word.prefix(1).uppercased() + word.dropFirst() }
        if upper, let first = result.first, first.isLowercase {
            result = first.uppercased() + result.dropFirst()
        }
        if let first = result.first, !isHead(first) { result = "_" + result }
        guard result.contains(where: { $0 != "_" }) else { return nil }
        return result
    }

    /// `name` as written in source: back-ticked when it is a reserved word.
    static func escaped(_ identifier: String) -> String {
        reserved.contains(identifier) ? "`\(identifier)`" : identifier
    }

    /// `text` as a Swift string literal.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
