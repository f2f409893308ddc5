/// Text from outside (a request, a file, a server, a command line) shown in a message.
public enum UntrustedText {
    /// How many characters of an untrusted text a message shows by default.
    public static let defaultLimit = 64

    /// `text` quoted for a message, as a Swift string literal (``SwiftSource/literal(_:)``), so a
    /// line break, a terminal escape or a bidirectional override can neither forge a line of a
    /// log or of output nor hide part of it; and cut to its first `limit` characters (Unicode
    /// scalars) with `…` before the closing quote and its size after it (`"abc…" (10000000
    /// bytes)`), so a 10 MB value does not become a 10 MB message and the reader still sees how
    /// large it was. A text holding a line break, `a⏎b`, is shown as `"a\nb"`.
    public static func shown(_ text: String, limit: Int = defaultLimit) -> String {
        let limit = max(limit, 0)
        let cut = !text.unicodeScalars.dropFirst(limit).isEmpty
        let shown = "\"" + SwiftSource.escaped(text.unicodeScalars.prefix(limit))
        return cut ? shown + "…\" (\(text.utf8.count) bytes)" : shown + "\""
    }

    /// `text` with the escapes and the cut of ``shown(_:limit:)`` but neither quotes nor size, for
    /// a value kept in a field of an error (a server's `reason`) that code compares and a message
    /// shows later: `"a\nb"` is kept as `a\nb`, a text longer than `limit` ends with `…`.
    public static func sanitized(_ text: String, limit: Int = defaultLimit) -> String {
        let limit = max(limit, 0)
        let cut = !text.unicodeScalars.dropFirst(limit).isEmpty
        return SwiftSource.escaped(text.unicodeScalars.prefix(limit)) + (cut ? "…" : "")
    }
}
