import Foundation

/// A record whose fields a ``RecordStore`` can filter, sort and count in the backend itself —
/// in memory for files, in the database for SQLite and PostgreSQL.
///
/// Declare the fields once; each gets a name (a column, with an index, in a database backend):
///
/// ```swift
/// struct Note: Codable, Identifiable, Sendable { var id: Int; var text: String; var stars: Int }
/// extension Note: QueryableRecord {
///     static let queryableFields: [QueryField<Note>] = [QueryField(\.text, "text"), QueryField(\.stars, "stars")]
/// }
/// let top = try await notes.fetch(where: \.stars >= 3, sortedBy: \.stars, ascending: false, limit: 10)
/// ```
///
/// A query naming a key path that is not in ``queryableFields`` fails with
/// ``RecordStoreError/unqueryableField(keyPath:record:)`` — it never falls back to loading every record.
public protocol QueryableRecord: Codable, Identifiable, Sendable where ID: Codable & Sendable {
    /// The fields queries may filter and sort on, each with a stable name.
    ///
    /// Names are letters, digits and `_`, unique within the record; database backends keep each
    /// field in a column named after it, so renaming a field adds a new column on next open.
    static var queryableFields: [QueryField<Self>] { get }
}

/// One field of a ``QueryableRecord`` that queries can use: a key path and a stable name.
///
/// The key path may reach a stored property, a nested one (`\.author.name`) or a computed one:
/// every backend reads the value through the key path in Swift, so all of them see the same value.
public struct QueryField<Record>: @unchecked Sendable {
    // @unchecked: a key path is an immutable value; the closure only reads through it.

    /// The field's name: its column in a database backend.
    public let name: String
    /// The kind of value the field holds.
    public let kind: QueryValueKind
    /// The key path this field reads.
    public let keyPath: AnyKeyPath
    private let read: (Record) -> QueryValue

    /// A field reading `keyPath`, named `name`.
    public init<Value: QueryableValue>(_ keyPath: KeyPath<Record, Value>, _ name: String) {
        self.name = name
        self.kind = Value.queryKind
        self.keyPath = keyPath
        self.read = { $0[keyPath: keyPath].queryValue }
    }

    /// The field's value in `record`.
    public func value(of record: Record) -> QueryValue { read(record) }
}

/// The kinds of value a ``QueryField`` can hold; each maps to one column type.
public enum QueryValueKind: String, Sendable, Hashable {
    /// `Bool`, stored as the integers 0 and 1 (false sorts before true).
    case bool
    /// Signed integers up to 64 bits.
    case integer
    /// Floating-point numbers; NaN is treated as nil.
    case real
    /// Text, compared by Unicode scalar values.
    case text
}

/// A field's value as queries see it.
///
/// Semantics shared by every backend: `null` (Swift's nil) is smaller than every value and never
/// satisfies a comparison; text compares by Unicode scalar values (the binary order of its
/// UTF-8 bytes, not by canonical equivalence or locale); `false < true`.
public enum QueryValue: Sendable, Hashable, CustomStringConvertible {
    /// No value (nil).
    case null
    /// A Boolean.
    case bool(Bool)
    /// A 64-bit integer.
    case integer(Int64)
    /// A double; never NaN (NaN becomes ``null``).
    case real(Double)
    /// Text.
    case text(String)

    /// The value as a query literal, for messages.
    public var description: String {
        switch self {
        case .null: "nil"
        case .bool(let value): String(value)
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): String(reflecting: value)
        }
    }

    /// Orders two values by the shared semantics: nil first, then by value; text by scalars.
    /// Values of different kinds (never produced by one field) order by kind.
    public static func order(_ lhs: QueryValue, _ rhs: QueryValue) -> Int {
        switch (lhs, rhs) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.bool(let a), .bool(let b)): return a == b ? 0 : (a ? 1 : -1)
        case (.integer(let a), .integer(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.real(let a), .real(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.text(let a), .text(let b)): return compareText(a, b)
        default: return lhs.rank < rhs.rank ? -1 : 1
        }
    }

    /// Compares text by Unicode scalar values: UTF-8's byte order is scalar order.
    package static func compareText(_ a: String, _ b: String) -> Int {
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }

    /// Whether `text` contains `part`, matching UTF-8 bytes (so Unicode scalars, exactly).
    package static func text(_ text: String, contains part: String) -> Bool {
        let haystack = Array(text.utf8)
        let needle = Array(part.utf8)
        if needle.isEmpty { return true }
        if needle.count > haystack.count { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == needle[0] && haystack[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }

    private var rank: Int {
        switch self {
        case .null: 0
        case .bool: 1
        case .integer: 2
        case .real: 3
        case .text: 4
        }
    }
}

/// A type a ``QueryField`` can read: it has a ``QueryValueKind`` and converts to a ``QueryValue``.
public protocol QueryableValue: Sendable {
    /// The kind of value, fixed per type.
    static var queryKind: QueryValueKind { get }
    /// This value as queries see it.
    var queryValue: QueryValue { get }
}

extension String: QueryableValue {
    /// Text.
    public static var queryKind: QueryValueKind { .text }
    /// The text.
    public var queryValue: QueryValue { .text(self) }
}

extension Bool: QueryableValue {
    /// Boolean.
    public static var queryKind: QueryValueKind { .bool }
    /// The Boolean.
    public var queryValue: QueryValue { .bool(self) }
}

extension Double: QueryableValue {
    /// Real.
    public static var queryKind: QueryValueKind { .real }
    /// The number; NaN becomes nil, since no database orders it the same way.
    public var queryValue: QueryValue { isNaN ? .null : .real(self) }
}

extension Float: QueryableValue {
    /// Real.
    public static var queryKind: QueryValueKind { .real }
    /// The number widened to `Double`; NaN becomes nil.
    public var queryValue: QueryValue { isNaN ? .null : .real(Double(self)) }
}

extension Int: QueryableValue {
    /// Integer.
    public static var queryKind: QueryValueKind { .integer }
    /// The number.
    public var queryValue: QueryValue { .integer(Int64(self)) }
}

extension Int64: QueryableValue {
    /// Integer.
    public static var queryKind: QueryValueKind { .integer }
    /// The number.
    public var queryValue: QueryValue { .integer(self) }
}

extension Int32: QueryableValue {
    /// Integer.
    public static var queryKind: QueryValueKind { .integer }
    /// The number.
    public var queryValue: QueryValue { .integer(Int64(self)) }
}

extension Int16: QueryableValue {
    /// Integer.
    public static var queryKind: QueryValueKind { .integer }
    /// The number.
    public var queryValue: QueryValue { .integer(Int64(self)) }
}

extension UInt32: QueryableValue {
    /// Integer.
    public static var queryKind: QueryValueKind { .integer }
    /// The number.
    public var queryValue: QueryValue { .integer(Int64(self)) }
}

extension Date: QueryableValue {
    /// Real: seconds since 1970.
    public static var queryKind: QueryValueKind { .real }
    /// Seconds since 1970, so dates sort in time order.
    public var queryValue: QueryValue { timeIntervalSince1970.queryValue }
}

extension UUID: QueryableValue {
    /// Text: the upper-case UUID string.
    public static var queryKind: QueryValueKind { .text }
    /// The UUID string.
    public var queryValue: QueryValue { .text(uuidString) }
}

extension Optional: QueryableValue where Wrapped: QueryableValue {
    /// The wrapped type's kind.
    public static var queryKind: QueryValueKind { Wrapped.queryKind }
    /// The wrapped value, or ``QueryValue/null``.
    public var queryValue: QueryValue { self?.queryValue ?? .null }
}

/// A record that opts into optimistic concurrency: every successful update increments its
/// revision, and an update or save carrying a revision other than the stored one fails with
/// ``RecordStoreError/staleRevision(id:expected:stored:in:)`` instead of overwriting a newer record.
///
/// ```swift
/// struct Task: Codable, Identifiable, Sendable, RevisionedRecord { var id: Int; var title: String; var revision = 0 }
/// var task = try await tasks.fetch(id: 1)!      // revision 3
/// task.title = "Edited"
/// try await tasks.update(task)                  // stored with revision 4
/// try await tasks.update(task)                  // throws staleRevision: 3 is no longer current
/// ```
public protocol RevisionedRecord {
    /// The revision this copy was read at; backends store `revision + 1` on update.
    var revision: Int { get set }
}
