import Foundation

/// A collection of Codable records with ids: insert, update, delete, fetch by id, filtered and
/// sorted fetches, and batched writes in one transaction.
///
/// ```swift
/// struct Note: Codable, Identifiable, Sendable { var id: Int; var title: String }
/// let notes = try RecordStore<Note>(file: "notes.json", in: store)     // one file
/// try await notes.insert(Note(id: 1, title: "Groceries"))
/// try await notes.write { batch in
///     batch.update(Note(id: 1, title: "Groceries and bread"))
///     batch.insert(Note(id: 2, title: "Call Ana"))
/// }
/// let recent = try await notes.fetch(where: { $0.title.hasPrefix("G") }, sortedBy: { $0.id > $1.id })
/// ```
///
/// The in-file backend (``FileRecordBackend``) rewrites its file atomically on each write: right
/// for collections up to a few thousand records. When a collection outgrows one file, switch
/// to the SQLite backend of the `StorageSQLite` product — the API stays the same.
public struct RecordStore<Record: Codable & Identifiable & Sendable>: Sendable
where Record.ID: Codable & Sendable {
    /// Where the records are kept.
    public let backend: any RecordBackend<Record>

    /// A store over any backend.
    public init(backend: any RecordBackend<Record>) {
        self.backend = backend
    }

    /// A store kept in one file of `store`, in the format of the key's extension.
    /// - Throws: ``StorageError/invalidKey(_:reason:)`` for a bad key.
    public init(file: String, in store: FileStore) throws(StorageError) {
        self.init(backend: try FileRecordBackend<Record>(file: file, in: store))
    }

    /// Adds a record.
    /// - Throws: ``StorageError/duplicateRecord(id:in:)`` when its id is already stored.
    public func insert(_ record: Record) async throws { try await backend.apply([.insert(record)]) }

    /// Replaces the stored record with the same id.
    /// - Throws: ``StorageError/recordNotFound(id:in:)`` when there is none.
    public func update(_ record: Record) async throws { try await backend.apply([.update(record)]) }

    /// Inserts the record, or replaces the stored one with the same id.
    public func save(_ record: Record) async throws { try await backend.apply([.save(record)]) }

    /// Deletes the record with `id`; deleting a missing id does nothing.
    public func delete(id: Record.ID) async throws { try await backend.apply([.delete(id)]) }

    /// Applies the changes `body` collects as one transaction: all of them, or none.
    ///
    /// ```swift
    /// try await notes.write { batch in
    ///     for note in imported { batch.save(note) }
    ///     batch.delete(id: 7)
    /// }
    /// ```
    public func write(_ body: (inout RecordBatch<Record>) throws -> Void) async throws {
        var batch = RecordBatch<Record>()
        try body(&batch)
        if !batch.changes.isEmpty { try await backend.apply(batch.changes) }
    }

    /// The changes after `cursor` (from the start when nil), oldest first: each changed record
    /// as it is now, or a tombstone for a deleted one, with the cursor to ask with next.
    ///
    /// ```swift
    /// let page = try await notes.changes(after: savedCursor, limit: 200)
    /// ```
    /// A `limit` above ``ChangeFeed/maximumPageSize`` is lowered to it. See <doc:ChangeFeeds>.
    /// - Throws: ``ChangeFeedError`` (``ChangeFeedError/requiresFullRefetch`` tells whether to
    ///   start over from nil), or the backend's error.
    public func changes(
        after cursor: ChangeCursor?, limit: Int = ChangeFeed.defaultPageSize
    ) async throws
        -> ChangePage<Record>
    {
        try await backend.changes(after: cursor, limit: limit)
    }

    /// Drops the change feed's tombstones of records deleted before `date`; returns how many.
    /// Clients whose cursor is older than the newest dropped one must re-fetch everything.
    public func pruneTombstones(deletedBefore date: Date) async throws -> Int {
        try await backend.pruneTombstones(deletedBefore: date)
    }

    /// The record with `id`, or nil.
    public func fetch(id: Record.ID) async throws -> Record? { try await backend.fetch(id: id) }

    /// Every record, in insertion order.
    public func fetchAll() async throws -> [Record] { try await backend.fetchAll() }

    /// The number of records.
    public func count() async throws -> Int { try await backend.count() }

    /// The records `isIncluded` accepts, ordered by `areInIncreasingOrder` (insertion order
    /// when nil), at most `limit` of them.
    public func fetch(
        where isIncluded: (Record) throws -> Bool = { _ in true },
        sortedBy areInIncreasingOrder: ((Record, Record) throws -> Bool)? = nil, limit: Int? = nil
    ) async throws -> [Record] {
        var records = try await backend.fetchAll().filter(isIncluded)
        if let areInIncreasingOrder { try records.sort(by: areInIncreasingOrder) }
        if let limit, records.count > limit { records.removeLast(records.count - max(0, limit)) }
        return records
    }

    /// The records `isIncluded` accepts, ordered by the value at `keyPath`.
    public func fetch<Key: Comparable>(
        where isIncluded: (Record) throws -> Bool = { _ in true }, sortedBy keyPath: KeyPath<Record, Key>,
        ascending: Bool = true, limit: Int? = nil
    ) async throws -> [Record] {
        try await fetch(
            where: isIncluded,
            sortedBy: {
                ascending ? $0[keyPath: keyPath] < $1[keyPath: keyPath] : $0[keyPath: keyPath] > $1[keyPath: keyPath]
            },
            limit: limit)
    }
}
