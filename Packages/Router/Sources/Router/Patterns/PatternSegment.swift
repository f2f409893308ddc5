/// One segment of a parsed route pattern.
enum PatternSegment: Sendable, Hashable {
    /// Text that must equal the path segment (percent-decoded, case-folded when the table is).
    case literal(String)
    /// `:name` or `:name(constraint)`: one non-empty segment, captured.
    case parameter(name: String, constraint: ParameterConstraint)
    /// `*`: one non-empty segment, not captured.
    case wildcard
    /// `**` or `**name`: the rest of the path, zero or more segments.
    case catchAll(name: String?)

    /// The segment with names dropped: two patterns conflict when their shapes are equal.
    var shape: PatternSegment {
        switch self {
        case .literal, .wildcard: self
        case .parameter(_, let constraint): .parameter(name: "", constraint: constraint)
        case .catchAll: .catchAll(name: nil)
        }
    }

    /// The segment as a pattern spells it.
    var text: String {
        switch self {
        case .literal(let value): PercentCoding.encodeSegment(value)
        case .parameter(let name, .string): ":\(name)"
        case .parameter(let name, let constraint): ":\(name)(\(constraint.rawValue))"
        case .wildcard: "*"
        case .catchAll(let name): "**\(name ?? "")"
        }
    }
}
