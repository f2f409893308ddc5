import Foundation

/// A condition on a record's queryable fields, built from key paths:
/// `\.stars >= 3 && \.text != ""`, `.contains(\.text, "milk")`, `.in(\.stars, [1, 2])`,
/// `.isNil(\.due)`, `!(\.done == true)`.
///
/// Every backend evaluates it the same way:
/// - A comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`, `contains`, `in`) is false when the field
///   is nil — `!=` included — except that comparing with nil (`== nil`, `!= nil`) tests for nil,
///   as ``isNil(_:)`` does. Logic is two-valued: `!` negates exactly.
/// - Text compares by Unicode scalar values (binary), so `"Z" < "a"` and a precomposed `é` is not
///   equal to `e` followed by a combining accent; `contains` matches scalars exactly.
///
/// Key paths must be declared in ``QueryableRecord/queryableFields``; a predicate on any other
/// key path fails when it runs with ``RecordStoreError/unqueryableField(keyPath:record:)``.
public struct RecordPredicate<Record>: Sendable {
    package let condition: QueryCondition<QueryKeyPath>

    package init(_ condition: QueryCondition<QueryKeyPath>) { self.condition = condition }

    /// Every record.
    public static var all: RecordPredicate { RecordPredicate(.constant(true)) }

    /// No record.
    public static var none: RecordPredicate { RecordPredicate(.constant(false)) }

    /// Records whose text field contains `part` (scalar-exact, case-sensitive; `""` matches every
    /// non-nil value).
    public static func contains(_ keyPath: KeyPath<Record, String>, _ part: String) -> RecordPredicate {
        RecordPredicate(.contains(QueryKeyPath(keyPath), part))
    }

    /// Records whose optional text field is not nil and contains `part`.
    public static func contains(_ keyPath: KeyPath<Record, String?>, _ part: String) -> RecordPredicate {
        RecordPredicate(.contains(QueryKeyPath(keyPath), part))
    }

    /// Records whose field equals one of `values` (nil in `values` matches nil).
    public static func `in`<Value: QueryableValue>(
        _ keyPath: KeyPath<Record, Value>, _ values: [Value]
    )
        -> RecordPredicate
    {
        RecordPredicate(.oneOf(QueryKeyPath(keyPath), values.map(\.queryValue)))
    }

    /// Records whose field is nil.
    public static func isNil<Value: QueryableValue>(_ keyPath: KeyPath<Record, Value?>) -> RecordPredicate {
        RecordPredicate(.isNil(QueryKeyPath(keyPath)))
    }

    /// Both conditions.
    public static func && (lhs: RecordPredicate, rhs: RecordPredicate) -> RecordPredicate {
        RecordPredicate(.and(lhs.condition, rhs.condition))
    }

    /// Either condition.
    public static func || (lhs: RecordPredicate, rhs: RecordPredicate) -> RecordPredicate {
        RecordPredicate(.or(lhs.condition, rhs.condition))
    }

    /// The opposite condition.
    public static prefix func ! (predicate: RecordPredicate) -> RecordPredicate {
        RecordPredicate(.not(predicate.condition))
    }
}

/// Records whose field equals `value` (`== nil` tests for nil).
public func == <Record, Value: QueryableValue>(lhs: KeyPath<Record, Value>, rhs: Value) -> RecordPredicate<Record> {
    RecordPredicate(.compare(QueryKeyPath(lhs), .equal, rhs.queryValue))
}

/// Records whose field is not nil and differs from `value` (`!= nil` tests for not nil).
public func != <Record, Value: QueryableValue>(lhs: KeyPath<Record, Value>, rhs: Value) -> RecordPredicate<Record> {
    RecordPredicate(.compare(QueryKeyPath(lhs), .notEqual, rhs.queryValue))
}

/// Records whose field is not nil and less than `value`.
public func < <Record, Value: QueryableValue>(lhs: KeyPath<Record, Value>, rhs: Value) -> RecordPredicate<Record> {
    RecordPredicate(.compare(QueryKeyPath(lhs), .less, rhs.queryValue))
}

/// Records whose field is not nil and at most `value`.
public func <= <Record, Value: QueryableValue>(lhs: KeyPath<Record, Value>, rhs: Value) -> RecordPredicate<Record> {
    RecordPredicate(.compare(QueryKeyPath(lhs), .lessOrEqual, rhs.queryValue))
}

/// Records whose field is not nil and greater than `value`.
public func > <Record, Value: QueryableValue>(lhs: KeyPath<Record, Value>, rhs: Value) -> RecordPredicate<Record> {
    RecordPredicate(.compare(QueryKeyPath(lhs), .greater, rhs.queryValue))
}

/// Records whose field is not nil and at least `value`.
public func >= <Record, Value: QueryableValue>(lhs: KeyPath<Record, Value>, rhs: Value) -> RecordPredicate<Record> {
    RecordPredicate(.compare(QueryKeyPath(lhs), .greaterOrEqual, rhs.queryValue))
}

/// A comparison in a ``QueryCondition``.
public enum QueryComparison: String, Sendable, Hashable {
    /// `==`
    case equal = "="
    /// `!=`
    case notEqual = "<>"
    /// `<`
    case less = "<"
    /// `<=`
    case lessOrEqual = "<="
    /// `>`
    case greater = ">"
    /// `>=`
    case greaterOrEqual = ">="
}

/// A predicate's tree, over key paths (as built) or resolved ``QueryField``s (as backends see it).
public indirect enum QueryCondition<Field: Sendable>: Sendable {
    /// Always true or always false.
    case constant(Bool)
    /// The field compared with a value; false when the field is nil, except `== nil`/`!= nil`.
    case compare(Field, QueryComparison, QueryValue)
    /// The text field contains the text; false when the field is nil.
    case contains(Field, String)
    /// The field equals one of the values.
    case oneOf(Field, [QueryValue])
    /// The field is nil.
    case isNil(Field)
    /// Both.
    case and(QueryCondition, QueryCondition)
    /// Either.
    case or(QueryCondition, QueryCondition)
    /// Not.
    case not(QueryCondition)

    /// The same tree over other fields; `transform` may throw to reject a field.
    package func map<Other>(_ transform: (Field) throws -> Other) throws -> QueryCondition<Other> {
        switch self {
        case .constant(let value): .constant(value)
        case .compare(let field, let comparison, let value): .compare(try transform(field), comparison, value)
        case .contains(let field, let part): .contains(try transform(field), part)
        case .oneOf(let field, let values): .oneOf(try transform(field), values)
        case .isNil(let field): .isNil(try transform(field))
        case .and(let lhs, let rhs): .and(try lhs.map(transform), try rhs.map(transform))
        case .or(let lhs, let rhs): .or(try lhs.map(transform), try rhs.map(transform))
        case .not(let condition): .not(try condition.map(transform))
        }
    }
}

/// A key path as a predicate holds it, until a query resolves it to a ``QueryField``.
package struct QueryKeyPath: @unchecked Sendable, Hashable {
    // @unchecked: key paths are immutable values.
    package let keyPath: AnyKeyPath
    package init(_ keyPath: AnyKeyPath) { self.keyPath = keyPath }
}
