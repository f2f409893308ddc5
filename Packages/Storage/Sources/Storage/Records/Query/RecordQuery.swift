import Errors
import Foundation

/// One sort key of a ``RecordQuery``: a queryable field and a direction.
public struct RecordSort<Record>: Sendable {
    package let keyPath: QueryKeyPath
    /// Whether smaller values come first.
    public let ascending: Bool

    /// Sorts by the field at `keyPath`, smallest first (nil before every value).
    public static func ascending<Value: QueryableValue>(_ keyPath: KeyPath<Record, Value>) -> RecordSort {
        RecordSort(keyPath: QueryKeyPath(keyPath), ascending: true)
    }

    /// Sorts by the field at `keyPath`, largest first (nil after every value).
    public static func descending<Value: QueryableValue>(_ keyPath: KeyPath<Record, Value>) -> RecordSort {
        RecordSort(keyPath: QueryKeyPath(keyPath), ascending: false)
    }
}

/// A filter, an order, and a window over a ``RecordStore``'s records, run by the backend.
///
/// Results are ordered by the sort keys in turn, then by id (its ``RecordID`` text, binary
/// order), so every backend returns the same records in the same order; `offset` records are
/// skipped, then at most `limit` returned.
public struct RecordQuery<Record: QueryableRecord>: Sendable {
    /// Which records.
    public var predicate: RecordPredicate<Record>
    /// The order, before the final tie-break by id.
    public var sort: [RecordSort<Record>]
    /// At most this many records (nil: all). Negative counts as 0.
    public var limit: Int?
    /// Skip this many records first. Negative counts as 0.
    public var offset: Int

    /// A query; by default every record, ordered by id.
    public init(
        where predicate: RecordPredicate<Record> = .all, sortedBy sort: [RecordSort<Record>] = [], limit: Int? = nil,
        offset: Int = 0
    ) {
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
        self.offset = offset
    }

    /// The query with its key paths resolved against `Record.queryableFields`.
    /// - Throws: ``RecordStoreError/unqueryableField(keyPath:record:)`` for a key path not declared
    ///   queryable, ``RecordStoreError/invalidField(name:record:reason:)`` for a bad declaration.
    public func plan() throws(RecordStoreError) -> RecordQueryPlan<Record> {
        let byKeyPath = try QuerySchema.index(of: Record.self)
        func resolve(_ key: QueryKeyPath) throws(RecordStoreError) -> QueryField<Record> {
            guard let field = byKeyPath[key.keyPath] else {
                throw .unqueryableField(
                    keyPath: String(describing: key.keyPath), record: String(describing: Record.self))
            }
            return field
        }
        do {
            let condition = try predicate.condition.map { key in try resolve(key) }
            let keys = try sort.map { sort in
                RecordQueryPlan<Record>.SortKey(field: try resolve(sort.keyPath), ascending: sort.ascending)
            }
            return RecordQueryPlan(
                condition: condition, sort: keys, limit: limit.map { max(0, $0) }, offset: max(0, offset))
        } catch let error as RecordStoreError {
            throw error
        } catch {
            // `map` only rethrows what `resolve` throws.
            throw .unqueryableField(keyPath: "\(error)", record: String(describing: Record.self))
        }
    }
}

/// A query with its fields resolved: what a ``RecordBackend`` runs.
///
/// A database backend translates it to SQL; ``run(on:)`` evaluates it in memory with the same
/// semantics, which is what the file backend and the default implementations do.
public struct RecordQueryPlan<Record>: Sendable {
    /// One resolved sort key.
    public struct SortKey: Sendable {
        /// The field.
        public let field: QueryField<Record>
        /// Whether smaller values come first (nil is smallest).
        public let ascending: Bool
    }

    /// Which records.
    public let condition: QueryCondition<QueryField<Record>>
    /// The order, before the tie-break by id.
    public let sort: [SortKey]
    /// At most this many records (never negative), or nil for all.
    public let limit: Int?
    /// Records to skip first (never negative).
    public let offset: Int

    /// A plan; `limit` and `offset` must not be negative.
    public init(condition: QueryCondition<QueryField<Record>>, sort: [SortKey], limit: Int?, offset: Int) {
        self.condition = condition
        self.sort = sort
        self.limit = limit
        self.offset = offset
    }

    /// The same filter with no order or window: what `count(where:)` and observation of counts use.
    public var unwindowed: RecordQueryPlan { RecordQueryPlan(condition: condition, sort: [], limit: nil, offset: 0) }

    /// Whether `record` satisfies the condition.
    public func matches(_ record: Record) -> Bool { Self.evaluate(condition, record) }

    private static func evaluate(_ condition: QueryCondition<QueryField<Record>>, _ record: Record) -> Bool {
        switch condition {
        case .constant(let value):
            return value
        case .compare(let field, let comparison, let value):
            return Self.compare(field.value(of: record), comparison, value)
        case .contains(let field, let part):
            guard case .text(let text) = field.value(of: record) else { return false }
            return QueryValue.text(text, contains: part)
        case .oneOf(let field, let values):
            let actual = field.value(of: record)
            return values.contains { QueryValue.order(actual, $0) == 0 }
        case .isNil(let field):
            return field.value(of: record) == .null
        case .and(let lhs, let rhs):
            return evaluate(lhs, record) && evaluate(rhs, record)
        case .or(let lhs, let rhs):
            return evaluate(lhs, record) || evaluate(rhs, record)
        case .not(let inner):
            return !evaluate(inner, record)
        }
    }

    /// One comparison under the shared semantics.
    package static func compare(_ actual: QueryValue, _ comparison: QueryComparison, _ value: QueryValue) -> Bool {
        if value == .null {
            switch comparison {
            case .equal: return actual == .null
            case .notEqual: return actual != .null
            default: return false
            }
        }
        if actual == .null { return false }
        let order = QueryValue.order(actual, value)
        switch comparison {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        }
    }

    /// The records that match, ordered and windowed: the reference every backend agrees with.
    public func run(on records: some Sequence<Record>) -> [Record]
    where Record: Identifiable, Record.ID: Encodable {
        let matching = records.filter(matches)
        let keyed = matching.map { record in
            (record: record, values: sort.map { $0.field.value(of: record) }, id: RecordID.string(for: record.id))
        }
        let sorted = keyed.sorted { lhs, rhs in
            for (index, key) in sort.enumerated() {
                let order = QueryValue.order(lhs.values[index], rhs.values[index])
                if order != 0 { return key.ascending ? order < 0 : order > 0 }
            }
            return QueryValue.compareText(lhs.id, rhs.id) < 0
        }
        let window = sorted.dropFirst(offset).prefix(limit ?? Int.max)
        return window.map(\.record)
    }
}

/// Reads and checks a record type's queryable fields.
package enum QuerySchema {
    /// The declared fields of `type`, or none when it is not a ``QueryableRecord``.
    /// - Throws: ``RecordStoreError/invalidField(name:record:reason:)`` for a bad or repeated name.
    package static func fields<Record>(of type: Record.Type) throws(RecordStoreError) -> [QueryField<Record>] {
        guard let queryable = type as? any QueryableRecord.Type else { return [] }
        guard let fields = declared(queryable) as? [QueryField<Record>] else { return [] }
        var seen = Set<String>()
        for field in fields {
            let valid =
                !field.name.isEmpty && field.name.utf8.count <= 48
                && field.name.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
                }
            if !valid {
                throw .invalidField(
                    name: field.name, record: String(describing: type),
                    reason: "a field name is 1 to 48 ASCII letters, digits or _")
            }
            if !seen.insert(field.name.lowercased()).inserted {
                throw .invalidField(
                    name: field.name, record: String(describing: type), reason: "two fields have this name")
            }
        }
        return fields
    }

    private static func declared<Record: QueryableRecord>(_ type: Record.Type) -> Any { type.queryableFields }

    /// The checked fields of `type` by key path, worked out once per type: every query resolves
    /// its key paths here, and checking the declaration each time cost more than SQLite took to
    /// run a small query.
    /// - Throws: what ``fields(of:)`` throws, every time.
    package static func index<Record>(of type: Record.Type) throws(RecordStoreError) -> [AnyKeyPath: QueryField<Record>]
    {
        let key = ObjectIdentifier(type)
        if let known = checkedIndexes.value(for: key) {
            switch known {
            case .success(let index): if let index = index as? FieldIndex<Record> { return index.byKeyPath }
            case .failure(let error): throw error
            }
        }
        let result: Result<AnyObject, RecordStoreError>
        do {
            let fields = try fields(of: type)
            result = .success(
                FieldIndex(Dictionary(fields.map { ($0.keyPath, $0) }, uniquingKeysWith: { first, _ in first })))
        } catch {
            result = .failure(error)
        }
        checkedIndexes.set(result, for: key)
        switch result {
        case .success(let index): return (index as? FieldIndex<Record>)?.byKeyPath ?? [:]
        case .failure(let error): throw error
        }
    }
}

/// A record type's checked fields by key path (a class, so the cache holds it as `AnyObject`).
private final class FieldIndex<Record>: @unchecked Sendable {
    // @unchecked: immutable; a key path is an immutable value.
    let byKeyPath: [AnyKeyPath: QueryField<Record>]
    init(_ byKeyPath: [AnyKeyPath: QueryField<Record>]) { self.byKeyPath = byKeyPath }
}

/// ``QuerySchema/index(of:)``'s answers, by record type.
private let checkedIndexes = TypeCache()

private final class TypeCache: @unchecked Sendable {
    // @unchecked: `entries` is only touched under `lock`.
    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Result<AnyObject, RecordStoreError>] = [:]
    func value(for key: ObjectIdentifier) -> Result<AnyObject, RecordStoreError>? { lock.withLock { entries[key] } }
    func set(_ value: Result<AnyObject, RecordStoreError>, for key: ObjectIdentifier) {
        lock.withLock { entries[key] = value }
    }
}

/// A failed record query or a refused record write.
public enum RecordStoreError: AppError, Equatable {
    /// A query used a key path that the record type does not list in `queryableFields`.
    case unqueryableField(keyPath: String, record: String)
    /// A declared queryable field is unusable.
    case invalidField(name: String, record: String, reason: String)
    /// An update or save carried a revision other than the stored one: someone else changed the
    /// record since it was read. Nothing was written.
    case staleRevision(id: String, expected: Int, stored: Int, in: String)
    /// The backend cannot tell when records change.
    case observationUnsupported(backend: String)

    /// A sentence naming the problem.
    public var message: String {
        switch self {
        case .unqueryableField(let keyPath, let record):
            "The key path \(keyPath) is not a queryable field of \(record); add it to \(record).queryableFields "
                + "(queries never fall back to loading every record)."
        case .invalidField(let name, let record, let reason):
            "The queryable field \"\(name)\" of \(record) is invalid: \(reason)."
        case .staleRevision(let id, let expected, let stored, let store):
            "The record \(id) in \(store) was changed by someone else (revision \(stored), this copy has "
                + "\(expected)); reload it and apply the change again."
        case .observationUnsupported(let backend):
            "The record backend \(backend) cannot report changes."
        }
    }
}
