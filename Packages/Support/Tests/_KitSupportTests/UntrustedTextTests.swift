import Testing
import _KitSupport

@Suite("UntrustedText.shown")
struct UntrustedTextTests {
    @Test("short text is shown whole, quoted, with escapes")
    func shortText() {
        #expect(UntrustedText.shown("cursor-7") == #""cursor-7""#)
        #expect(UntrustedText.shown("a\nb") == #""a\nb""#)
        #expect(UntrustedText.shown("\u{1B}[2J") == #""\u{1b}[2J""#)
        #expect(UntrustedText.shown(#"a "b" \c"#) == #""a \"b\" \\c""#)
        #expect(UntrustedText.shown("") == #""""#)
    }

    @Test("text longer than the limit is cut to it, with an ellipsis before the closing quote and its size after")
    func longText() {
        let long = String(repeating: "x", count: 10_000_000)
        #expect(UntrustedText.shown(long) == "\"" + String(repeating: "x", count: 64) + "…\" (10000000 bytes)")
        #expect(
            UntrustedText.shown(String(repeating: "y", count: 64)) == "\"" + String(repeating: "y", count: 64) + "\"")
        #expect(UntrustedText.shown("abcdef", limit: 3) == #""abc…" (6 bytes)"#)
        #expect(UntrustedText.shown("abc", limit: 3) == #""abc""#)
    }

    @Test("the limit counts characters before they are escaped")
    func limitBeforeEscapes() {
        let lines = String(repeating: "\n", count: 100)
        #expect(UntrustedText.shown(lines) == "\"" + String(repeating: #"\n"#, count: 64) + "…\" (100 bytes)")
    }

    @Test("what is shown is one line: no line break, separator or control character gets through")
    func oneLine() {
        let hostile = "ok\r\nFAKE LOG LINE\u{2028}\u{85}\u{0}\u{7F}"
        let shown = UntrustedText.shown(hostile)
        #expect(
            shown.unicodeScalars.allSatisfy {
                $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value)
            })
        #expect(!shown.unicodeScalars.contains("\u{2028}"))
    }

    @Test("sanitized keeps the escapes and the cut, without quotes or size")
    func sanitized() {
        #expect(UntrustedText.sanitized("recordRefused") == "recordRefused")
        #expect(UntrustedText.sanitized("a\nb") == #"a\nb"#)
        #expect(UntrustedText.sanitized("abcdef", limit: 3) == "abc…")
        #expect(UntrustedText.sanitized("abc", limit: 3) == "abc")
    }
}
