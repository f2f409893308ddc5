/// A model's version as stored in its data: an integer or a string.
///
/// Versions order by their dot-separated components, left to right: numeric components by value
/// (`"1.10" > "1.9"`, `2 < "10"`), other components alphabetically, and a numeric component
/// before any other (`"2" < "10a"`, `"1.9" < "1.beta"`); a version that is a prefix of another
/// comes first (`"1" < "1.0"`). Versions with equal components but different spellings
/// (`1`, `"1"`, `"01"`) order integers first, then by their text, so that exactly one of
/// `a < b`, `b < a` and `a == b` holds: `<` is a strict total order consistent with `==`.
public enum ModelVersion: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral
{
    /// An integer version: `3`.
    case int(Int)
    /// A string version: `"2.1"`.
    case string(String)

    /// An integer version.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A string version.
    public init(stringLiteral value: String) { self = .string(value) }

    /// The version as a tree value, as it is stamped.
    public var keyValue: KeyValue {
        switch self {
        case .int(let value): .int(value)
        case .string(let value): .string(value)
        }
    }

    /// The version read from a tree value: an integer, an integral double, or a string.
    public init?(_ value: KeyValue) {
        switch value {
        case .int(let number): self = .int(number)
        case .double(let number):
            guard let integer = Int(exactly: number) else { return nil }
            self = .int(integer)
        case .string(let text): self = .string(text)
        default: return nil
        }
    }

    /// `3` or `"2.1"` as written.
    public var description: String {
        switch self {
        case .int(let value): String(value)
        case .string(let value): value
        }
    }

    /// One dot-separated part of a version: a number, or other text.
    private enum Component: Comparable {
        case number(Int)
        case text(String)

        init(_ part: Substring) {
            if let number = Int(part) { self = .number(number) } else { self = .text(String(part)) }
        }

        /// Numbers by value, before any text; texts alphabetically.
        static func < (lhs: Component, rhs: Component) -> Bool {
            switch (lhs, rhs) {
            case (.number(let a), .number(let b)): a < b
            case (.number, .text): true
            case (.text, .number): false
            case (.text(let a), .text(let b)): a < b
            }
        }
    }

    private var components: [Component] {
        switch self {
        case .int(let value): [.number(value)]
        case .string(let text): text.split(separator: ".", omittingEmptySubsequences: false).map(Component.init)
        }
    }

    /// Orders versions by component (see the type's documentation); a strict total order that
    /// agrees with `==`.
    public static func < (lhs: ModelVersion, rhs: ModelVersion) -> Bool {
        if case .int(let left) = lhs, case .int(let right) = rhs { return left < right }
        let left = lhs.components
        let right = rhs.components
        for (a, b) in zip(left, right) where a != b { return a < b }
        if left.count != right.count { return left.count < right.count }
        // Same components, different spellings (1, "1", "01"): integers first, then by text.
        switch (lhs, rhs) {
        case (.int, .string): return true
        case (.string, .int): return false
        case (.string(let a), .string(let b)): return a < b
        case (.int, .int): return false
        }
    }
}

/// A type usable as a model version: `Int` or `String`.
public protocol ModelVersionRepresentable: Sendable, Hashable {
    /// This version as a ``ModelVersion``.
    var modelVersion: ModelVersion { get }
}

extension Int: ModelVersionRepresentable {
    /// `.int(self)`.
    public var modelVersion: ModelVersion { .int(self) }
}

extension String: ModelVersionRepresentable {
    /// `.string(self)`.
    public var modelVersion: ModelVersion { .string(self) }
}
