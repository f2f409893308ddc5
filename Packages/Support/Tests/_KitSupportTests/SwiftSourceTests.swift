import Testing
import _KitSupport

@Suite("SwiftSource.literal")
struct SwiftSourceTests {
    @Test(
        "special characters become escapes, everything else stays as it is",
        arguments: [
            ("plain", #""plain""#),
            ("é and 日本", #""é and 日本""#),
            (#"say "hi""#, #""say \"hi\"""#),
            (#"C:\path"#, #""C:\\path""#),
            ("a\nb\rc\td\0e", #""a\nb\rc\td\0e""#),
            ("bell\u{7}", #""bell\u{7}""#),
            ("esc\u{1B}[31m", #""esc\u{1b}[31m""#),
            ("rtl\u{202E}txt", #""rtl\u{202e}txt""#),
            ("line\u{2028}sep", #""line\u{2028}sep""#),
            ("\u{7F}", #""\u{7f}""#),
            ("", #""""#),
        ])
    func escapes(text: String, literal: String) {
        #expect(SwiftSource.literal(text) == literal)
    }

    @Test("a literal never ends early: what it holds has no unescaped quote and no line break")
    func cannotEndEarly() {
        let hostile = "\"); exit(1); let x = (\"\n// \u{2029}\\"
        let body = SwiftSource.literal(hostile).dropFirst().dropLast()
        var escaping = false
        for character in body.unicodeScalars {
            if escaping {
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                #expect(character != "\"")
                #expect(!character.properties.isWhitespace || character == " ")
            }
        }
    }
}
