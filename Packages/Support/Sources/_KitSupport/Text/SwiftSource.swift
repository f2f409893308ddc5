/// Swift source text built from values: a string becomes a literal with every special character
/// escaped, so a value can never end its literal and become code.
public enum SwiftSource {
    /// `text` as a Swift string literal, quotes included: `\`, `"`, line breaks, tabs and NUL
    /// as their escapes (`\\`, `\"`, `\n`, `\r`, `\t`, `\0`); other control, format and separator
    /// characters, which would break a line or hide text, as `\u{…}`; everything else as is.
    public static func literal(_ text: String) -> String {
        "\"" + escaped(text.unicodeScalars) + "\""
    }

    /// The characters of a string literal's body for `scalars`, without the quotes.
    static func escaped(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        var result = String.UnicodeScalarView()
        for scalar in scalars {
            switch scalar {
            case "\\": result.append(contentsOf: #"\\"#.unicodeScalars)
            case "\"": result.append(contentsOf: #"\""#.unicodeScalars)
            case "\n": result.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": result.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": result.append(contentsOf: #"\t"#.unicodeScalars)
            case "\0": result.append(contentsOf: #"\0"#.unicodeScalars)
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate:
                    result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
                default:
                    result.append(scalar)
                }
            }
        }
        return String(result)
    }
}
