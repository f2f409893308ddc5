/// JSON's one-character escapes (RFC 8259 §7), in one place for both JSON readers.
enum JSONEscape {
    /// The byte that `\` followed by `code` stands for, or nil when `code` does not make a
    /// one-character escape (`u` starts a `\uXXXX` escape, which each reader decodes itself).
    @inline(__always)
    static func byte(for code: UInt8) -> UInt8? {
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): code
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        default: nil
        }
    }
}
