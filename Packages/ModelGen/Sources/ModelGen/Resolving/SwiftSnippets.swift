import Foundation

/// Checks the pieces of Swift a design may supply — a type (`boiler.type`) or a default
/// expression (`boiler.default`) — so that each stays one type or one expression where the
/// templates put it and cannot close the declaration around it or open a comment.
enum SwiftSnippets {
    /// Why `text` is not usable as a type, or nil when it is: identifiers, `.`, `<>`, `[]`,
    /// `()`, `?`, `!`, `&`, `->`, spaces, and `:` and `,` only inside brackets, all on one line.
    static func typeProblem(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return "is empty" }
        if let problem = lineProblem(text) { return problem }
        var stack: [Unicode.Scalar] = []
        var previous: Unicode.Scalar = " "
        for scalar in trimmed.unicodeScalars {
            switch scalar {
            case "<", "[", "(":
                stack.append(scalar)
            case ">" where previous == "-":
                break
            case ">", "]", ")":
                let opener: Unicode.Scalar = scalar == ">" ? "<" : scalar == "]" ? "[" : "("
                guard stack.popLast() == opener else { return "has an unbalanced '\(scalar)'" }
            case ":", ",":
                guard !stack.isEmpty else { return "has a '\(scalar)' outside brackets" }
            case "-":
                break
            case ".", "?", "!", "&", " ":
                break
            default:
                guard SwiftNames.isBody(scalar) else { return "has the character '\(Character(scalar))'" }
            }
            if previous == "-" && scalar != ">" { return "has a '-' that is not part of '->'" }
            previous = scalar
        }
        if previous == "-" { return "has a '-' that is not part of '->'" }
        guard stack.isEmpty else { return "has an unclosed '\(stack.last.map { Character($0) } ?? " ")'" }
        return nil
    }

    /// Why `text` is not usable as one expression, or nil when it is: one line, brackets
    /// balanced, string literals closed, and outside literals no comment, `;` or top-level `,`.
    static func expressionProblem(_ text: String) -> String? {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return "is empty" }
        if let problem = lineProblem(text) { return problem }
        var stack: [Unicode.Scalar] = []
        var inString = false
        var escaped = false
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            if inString {
                if escaped {
                    escaped = false
                } else if scalar == "\\" {
                    escaped = true
                } else if scalar == "\"" {
                    inString = false
                }
                continue
            }
            switch scalar {
            case "\"":
                inString = true
            case "(", "[", "{":
                stack.append(scalar)
            case ")", "]", "}":
                let opener: Unicode.Scalar = scalar == ")" ? "(" : scalar == "]" ? "[" : "{"
                guard stack.popLast() == opener else { return "has an unbalanced '\(scalar)'" }
            case ";":
                return "has a ';'"
            case ",":
                guard !stack.isEmpty else { return "has a ',' outside brackets" }
            case "/" where previous == "/", "*" where previous == "/":
                return "has a comment"
            default:
                break
            }
        }
        guard !inString else { return "has an unclosed string literal" }
        guard stack.isEmpty else { return "has an unclosed '\(stack.last.map { Character($0) } ?? " ")'" }
        return nil
    }

    /// Why `text` cannot stay on one line of source: a line break or other control or format
    /// character.
    private static func lineProblem(_ text: String) -> String? {
        SwiftNames.hasForbiddenCharacter(text) ? "has a line break, control or format character" : nil
    }
}
