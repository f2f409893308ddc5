import Foundation

/// A type a `:name(constraint)` parameter must have for its route to match.
///
/// Constraints take part in matching: `/users/:id(int)` does not match `/users/me`, and the
/// next candidate (say `/users/:name`) is tried. At one position, constrained parameters are
/// tried before unconstrained ones, in the order of this enum.
public enum ParameterConstraint: String, Sendable, CaseIterable, Comparable {
    /// A decimal integer that fits `Int`: `42`, `-7`.
    case int
    /// A UUID in its 36-character form, any case.
    case uuid
    /// A decimal number that `Double` parses (not `nan` or `inf`).
    case double
    /// Any non-empty segment: the same as no constraint; written to document intent.
    case string

    /// Whether a (percent-decoded) segment satisfies this constraint.
    func accepts(_ segment: Substring) -> Bool {
        switch self {
        case .int: Int(segment) != nil
        case .uuid: segment.utf8.count == 36 && UUID(uuidString: String(segment)) != nil
        case .double: Double(segment).map { $0.isFinite } ?? false
        case .string: true
        }
    }

    /// Constraints order by how specific they are; ``string`` comes last.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .int: 0
        case .uuid: 1
        case .double: 2
        case .string: 3
        }
    }
}
