/// Byte-level checks for the ASCII grammar of HTTP (RFC 9110): header names are tokens,
/// compared without regard to ASCII case, and optional whitespace is spaces and tabs.
///
/// Foundation's `caseInsensitiveCompare`, `CharacterSet` and `trimmingCharacters(in:)` do the
/// same through CoreFoundation's Unicode tables, which on Linux cost microseconds per call on
/// every request and response; these work on UTF-8 bytes and touch no Unicode data.
enum ASCII {
    /// Whether `a` and `b` are equal when ASCII letters are folded to lower case.
    ///
    /// Non-ASCII bytes must match exactly, which is right for header names: they are tokens,
    /// and a name with other bytes is refused before it is sent.
    static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        let a = a.utf8
        let b = b.utf8
        return a.count == b.count && a.elementsEqual(b) { lowercase($0) == lowercase($1) }
    }

    @inline(__always)
    static func lowercase(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }

    /// Whether `text` is a token: one or more of letters, digits and ``tokenPunctuation``.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }

    /// The characters besides letters and digits that a token may contain.
    static let tokenPunctuation = "!#$%&'*+-.^_`|~"

    /// Token bytes as a 128-bit set: bit `b` of `low` for `b` < 64, bit `b − 64` of `high` above.
    private static let tokenMasks: (low: UInt64, high: UInt64) = {
        var low: UInt64 = 0
        var high: UInt64 = 0
        let members =
            Array(tokenPunctuation.utf8) + Array(UInt8(ascii: "0")...UInt8(ascii: "9"))
            + Array(UInt8(ascii: "A")...UInt8(ascii: "Z")) + Array(UInt8(ascii: "a")...UInt8(ascii: "z"))
        for byte in members {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
        return (low, high)
    }()

    static func isTokenByte(_ byte: UInt8) -> Bool {
        if byte < 64 { return tokenMasks.low & (1 << UInt64(byte)) != 0 }
        if byte < 128 { return tokenMasks.high & (1 << UInt64(byte - 64)) != 0 }
        return false
    }

    /// `text` without leading and trailing spaces and tabs (HTTP's optional whitespace).
    static func trimmingWhitespace(_ text: some StringProtocol) -> Substring {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let substring = Substring(text)
        guard let first = substring.firstIndex(where: { !isWhitespace($0) }),
            let last = substring.lastIndex(where: { !isWhitespace($0) })
        else { return substring[substring.endIndex...] }
        return substring[first...last]
    }
}
