/// A model's version as stored in its data: an integer or a string.
///
/// Integers order numerically. Strings order by their dot-separated numeric components when they
/// have them (`"1.10" > "1.9"`), otherwise alphabetically. An integer and a string compare by
/// the string's first component.
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

    private var numericComponents: [Int]? {
        switch self {
        case .int(let value): return [value]
        case .string(let text):
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
            guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
            return parts.compactMap { $0 }
        }
    }

    /// Orders versions numerically by component where possible.
    public static func < (lhs: ModelVersion, rhs: ModelVersion) -> Bool {
        if case .int(let left) = lhs, case .int(let right) = rhs { return left < right }
        if let left = lhs.numericComponents, let right = rhs.numericComponents {
            for (a, b) in zip(left, right) where a != b { return a < b }
            return left.count < right.count
        }
        return lhs.description < rhs.description
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
