import Foundation

/// Where a ``RecordStore`` keeps its records: one file (``FileRecordBackend``), a SQLite table
/// (`SQLiteRecordBackend` in the `StorageSQLite` product), or your own.
///
/// A backend applies a batch of changes as one transaction: all of them or, when one fails
/// (inserting an existing id, updating a missing one), none.
public protocol RecordBackend<Record>: Sendable {
    /// The records' type.
    associatedtype Record: Codable & Identifiable & Sendable where Record.ID: Codable & Sendable

    /// Every record, in insertion order.
    func fetchAll() async throws -> [Record]
    /// The record with `id`, or nil.
    func fetch(id: Record.ID) async throws -> Record?
    /// The number of records.
    func count() async throws -> Int
    /// Applies `changes` in order, as one transaction.
    /// - Throws: ``StorageError/duplicateRecord(id:in:)``, ``StorageError/recordNotFound(id:in:)``,
    ///   or the backend's own error; then nothing was applied.
    func apply(_ changes: [RecordChange<Record>]) async throws

    /// The records `plan` selects, in its order: filtered, sorted and windowed in the backend.
    ///
    /// The default loads every record and runs ``RecordQueryPlan/run(on:)``; database backends
    /// run the plan in the database. Every implementation must give the same answers.
    func fetch(_ plan: RecordQueryPlan<Record>) async throws -> [Record]
    /// The number of records `plan`'s condition selects (its order and window are ignored).
    func count(_ plan: RecordQueryPlan<Record>) async throws -> Int
    /// The records `plan` selects now, then again each time they may have changed.
    ///
    /// A result set equal to the previous one is not repeated. The default yields the current
    /// result and then fails with ``RecordStoreError/observationUnsupported(backend:)``.
    func changes(_ plan: RecordQueryPlan<Record>) -> AsyncThrowingStream<[Record], any Error>

    /// The table's change feed after `cursor` (from the start when nil): at most `limit` entries,
    /// each record's latest change or its tombstone, in the order they committed.
    ///
    /// A backend that keeps a feed logs every write in the write's own transaction and never
    /// hands out a position below one a reader has already passed (see <doc:ChangeFeeds>). The
    /// default throws ``ChangeFeedError/unsupported(backend:)``.
    /// - Throws: ``ChangeFeedError`` for a bad, foreign, expired or future cursor or a limit
    ///   below 1; the backend's error when the database fails.
    func changes(after cursor: ChangeCursor?, limit: Int) async throws -> ChangePage<Record>

    /// Drops the feed's tombstones of records deleted before `date`, and returns how many.
    ///
    /// A cursor from before the newest dropped tombstone is refused from then on with
    /// ``ChangeFeedError/cursorExpired(_:in:)``, so its client re-fetches everything instead of
    /// keeping a record that was deleted. The default throws ``ChangeFeedError/unsupported(backend:)``.
    func pruneTombstones(deletedBefore date: Date) async throws -> Int
}

extension RecordBackend {
    /// Throws ``ChangeFeedError/unsupported(backend:)``: this backend keeps no change feed.
    public func changes(after cursor: ChangeCursor?, limit: Int) async throws -> ChangePage<Record> {
        throw ChangeFeedError.unsupported(backend: String(describing: type(of: self)))
    }

    /// Throws ``ChangeFeedError/unsupported(backend:)``: this backend keeps no change feed.
    public func pruneTombstones(deletedBefore date: Date) async throws -> Int {
        throw ChangeFeedError.unsupported(backend: String(describing: type(of: self)))
    }

    /// Loads every record and runs the plan in memory.
    public func fetch(_ plan: RecordQueryPlan<Record>) async throws -> [Record] {
        plan.run(on: try await fetchAll())
    }

    /// Loads every record and counts the matching ones in memory.
    public func count(_ plan: RecordQueryPlan<Record>) async throws -> Int {
        try await fetchAll().count(where: plan.matches)
    }

    /// Yields the current result, then fails: this backend cannot tell when records change.
    public func changes(_ plan: RecordQueryPlan<Record>) -> AsyncThrowingStream<[Record], any Error> {
        let name = String(describing: type(of: self))
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    continuation.yield(try await fetch(plan))
                    continuation.finish(throwing: RecordStoreError.observationUnsupported(backend: name))
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// One change in a batch of record writes.
public enum RecordChange<Record: Identifiable & Sendable>: Sendable where Record.ID: Sendable {
    /// Adds a record whose id is not stored yet.
    case insert(Record)
    /// Replaces the stored record with the same id.
    case update(Record)
    /// Inserts the record, or replaces the stored one with the same id.
    case save(Record)
    /// Deletes the record with this id; deleting a missing id does nothing.
    case delete(Record.ID)
}

/// Changes collected by ``RecordStore/write(_:)`` and applied as one transaction.
public struct RecordBatch<Record: Identifiable & Sendable>: Sendable where Record.ID: Sendable {
    /// The changes so far, in order.
    public private(set) var changes: [RecordChange<Record>] = []

    /// An empty batch.
    public init() {}

    /// Adds a record whose id is not stored yet.
    public mutating func insert(_ record: Record) { changes.append(.insert(record)) }
    /// Replaces the stored record with the same id.
    public mutating func update(_ record: Record) { changes.append(.update(record)) }
    /// Inserts the record, or replaces the stored one with the same id.
    public mutating func save(_ record: Record) { changes.append(.save(record)) }
    /// Deletes the record with this id.
    public mutating func delete(id: Record.ID) { changes.append(.delete(id)) }
}

/// Canonical text for record ids, used as file-backend keys and SQLite primary keys.
public enum RecordID {
    /// `"42"` for `42`, the string itself for a `String`, the UUID string for a `UUID`, and
    /// compact JSON for any other Codable id.
    public static func string(for id: some Encodable) -> String {
        switch id {
        case let text as String: return text
        case let uuid as UUID: return uuid.uuidString
        case let number as any BinaryInteger: return String(describing: number)
        case let text as any LosslessStringConvertible: return text.description
        default:
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            guard let data = try? encoder.encode(id) else { return String(describing: id) }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
