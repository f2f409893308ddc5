/// Fills `{{key}}` placeholders in template text. An unknown key is a programming error in a
/// template, reported rather than silently rendered as nothing.
struct TemplateText {
    let text: String

    init(_ text: String) { self.text = text }

    func render(_ values: [String: String]) throws(BoilerError) -> String {
        var output = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            output += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw .invalidOption("template", value: String(rest.prefix(40)), expected: "a closing '}}'")
            }
            let key = String(rest[open.upperBound..<close.lowerBound]).trimmingWhitespace
            guard let value = values[key] else {
                throw .invalidOption("set", value: key, expected: "a value for the template key '\(key)'")
            }
            output += value
            rest = rest[close.upperBound...]
        }
        return output + rest
    }
}
