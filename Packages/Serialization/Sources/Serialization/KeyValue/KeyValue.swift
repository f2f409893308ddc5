import Foundation

/// A key-value tree: the format-independent form a model takes between Codable and bytes.
///
/// Encoding a model produces a `KeyValue` (``init(encoding:encoder:)``); a ``DataFormat`` turns
/// it into bytes and back; decoding reads a model out of it (``decode(_:decoder:)``). In between
/// the tree can be inspected and edited, which is what migrations do.
///
/// Objects keep their keys in insertion order, but two objects are equal when they hold the
/// same keys with equal values in any order, as JSON objects are.
public enum KeyValue: Sendable, Hashable {
    /// The absence of a value (`null` in JSON).
    case null
    /// A Boolean.
    case bool(Bool)
    /// A signed integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A number that neither `Int` nor `Double` holds exactly: an integer beyond `Int`
    /// (a large `UInt64`, `Int128`, `UInt128`) or a `Decimal` with more digits than a `Double`
    /// keeps. ``number(_:)`` makes the canonical value for a `Decimal`; readers return this case
    /// only for such numbers.
    case decimal(Decimal)
    /// A string.
    case string(String)
    /// Raw bytes (base64 in JSON, `<data>` in property lists).
    case data(Data)
    /// A point in time (ISO 8601 in JSON, `<date>` in property lists).
    case date(Date)
    /// An ordered list of values.
    case array([KeyValue])
    /// String keys to values, in insertion order.
    case object(KeyValueObject)
}

extension KeyValue {
    /// The nesting limit every built-in format shares, for writing and reading alike: 512.
    ///
    /// A writer refuses a tree deeper than its format's limit (with
    /// ``SerializationError/tooDeep(limit:_:)`` naming the key path, before any byte is written),
    /// so whatever a format writes, the same format reads.
    public static let defaultMaximumDepth = 512

    /// How deeply arrays and objects nest in this value: 0 for a scalar, 1 for `[]`, `[1]` or
    /// `{"a": 1}`, 2 for `[[1]]`. This is the depth the formats' limits count.
    public var depth: Int {
        switch self {
        case .array(let elements): 1 + (elements.lazy.map(\.depth).max() ?? 0)
        case .object(let object): 1 + (object.entries.lazy.map(\.value.depth).max() ?? 0)
        default: 0
        }
    }

    /// The name of this value's kind, as errors print it: `"string"`, `"object"`.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .double: "double"
        case .decimal: "decimal"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Whether this value is ``null``.
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// The string, when this value is one.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }

    /// The integer, when this value is one (or a double or decimal with an exact `Int` value).
    public var intValue: Int? {
        switch self {
        case .int(let value): value
        case .double(let value): Int(exactly: value)
        case .decimal(let value): Int(value.description)
        default: nil
        }
    }

    /// The number as a double (the nearest one), when this value is a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .decimal(let value): Double(value.description)
        default: nil
        }
    }

    /// The number as a `Decimal`, when this value is a number: exact for integers, decimals, and
    /// doubles by their shortest text (`0.1` is `Decimal(string: "0.1")`).
    public var decimalValue: Decimal? {
        switch self {
        case .int(let value): Decimal(value)
        case .double(let value):
            value.isFinite ? Decimal(string: value.description, locale: NumberText.posix) : nil
        case .decimal(let value): value
        default: nil
        }
    }

    /// The Boolean, when this value is one.
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }

    /// The elements, when this value is an array.
    public var arrayValue: [KeyValue]? { if case .array(let value) = self { value } else { nil } }

    /// The entries, when this value is an object.
    public var objectValue: KeyValueObject? { if case .object(let value) = self { value } else { nil } }

    /// The value under `key` when this is an object; setting on a non-object makes it one.
    ///
    /// Setting `nil` removes the key.
    public subscript(key: String) -> KeyValue? {
        get {
            guard case .object(let object) = self else { return nil }
            return object[key]
        }
        set {
            var object: KeyValueObject
            if case .object(let existing) = self { object = existing } else { object = [:] }
            self = .null
            object[key] = newValue
            self = .object(object)
        }
    }

    /// The element at `index` when this is an array and the index is in range.
    ///
    /// Setting replaces an element in range; setting out of range or on a non-array does nothing.
    public subscript(index: Int) -> KeyValue? {
        get {
            guard case .array(let array) = self, array.indices.contains(index) else { return nil }
            return array[index]
        }
        set {
            guard case .array(var array) = self, array.indices.contains(index) else { return }
            self = .null
            array[index] = newValue ?? .null
            self = .array(array)
        }
    }
}

extension KeyValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// ``null``.
    public init(nilLiteral: ()) { self = .null }
    /// A ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An ``int(_:)``.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A ``double(_:)``.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An ``array(_:)``.
    public init(arrayLiteral elements: KeyValue...) { self = .array(elements) }
    /// An ``object(_:)`` with the keys in the order written.
    public init(dictionaryLiteral elements: (String, KeyValue)...) {
        self = .object(KeyValueObject(elements))
    }
}
