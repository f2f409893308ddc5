/// How default error codes are derived; shared by ``AppError`` and ``ErrorReport``.
enum ErrorCode {
    /// The `NSError.userInfo` key under which bridged errors carry their ``AppError/code``.
    static let userInfoKey = "AppErrorCode"

    /// `"<Type>.<case>"` for enums, `"<Type>"` otherwise.
    static func derived(from error: some Error) -> String {
        let typeName = String(describing: type(of: error))
        guard let caseName = caseName(of: error) else { return typeName }
        return "\(typeName).\(caseName)"
    }

    /// The name of an enum case, or nil when the value is not an enum or the name cannot be
    /// read without calling the type's own description.
    static func caseName(of value: Any) -> String? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum else { return nil }
        // A case with a payload reflects as one child labelled with the case name.
        if let label = mirror.children.first?.label { return label }
        // A case without one prints as its name, unless the type customises its description.
        let customised =
            value is any CustomStringConvertible || value is any CustomDebugStringConvertible
            || value is any TextOutputStreamable
        return customised ? nil : String(describing: value)
    }

    /// A 31-bit FNV-1a hash of `code`: stable, non-negative, good enough to tell codes apart.
    static func number(for code: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in code.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return Int(hash & 0x7FFF_FFFF)
    }
}
