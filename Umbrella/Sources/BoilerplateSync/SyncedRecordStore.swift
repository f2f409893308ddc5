import Foundation
import GRDB
import Storage
import StorageSQLite

/// Records in a SQLite table that a ``SyncEngine`` keeps in step with a sync server: every local
/// write and its outbox entry commit in one transaction, so a change made offline is sent when
/// the network returns, even if the app was killed in between.
///
/// Read, query and observe through ``records``, a plain `RecordStore`: its writes go through the
/// outbox too, and changes the engine pulls from the server are applied through the same
/// backend, so `LiveQuery`, `changes(matching:)` and Observation see both.
///
/// ```swift
/// let notes = try SyncedRecordStore<Note>(url: folder.appendingPathComponent("notes.sqlite"), table: "notes")
/// try await notes.insert(Note(id: UUID().uuidString, text: "Call Ana"))   // record + outbox entry
/// let all = try await notes.records.fetchAll()
/// ```
///
/// The outbox, the cursor, the client id and the conflict log live in the same database file,
/// in tables named after `table` (`<table>__outbox`, …). Records must be `RevisionedRecord`s:
/// the server's revision is what a change is based on. Create records with ids the app chooses
/// (UUIDs), so a record made offline has its final id at once.
public final class SyncedRecordStore<Record: RevisionedRecord & Codable & Identifiable & Sendable>: Sendable
where Record.ID: Codable & Sendable {
    /// The records: reads, queries, live queries, and writes that are queued for the server.
    public let records: RecordStore<Record>
    /// The SQLite backend the records live in.
    public let backend: SQLiteRecordBackend<Record>
    /// The table's name.
    public var table: String { tables.table }

    let tables: SyncTables
    let localWrites = LocalWriteSignal()

    /// A synced store on the table `table` of the SQLite database at `url` (created if needed).
    ///
    /// A table that already holds records the first time it is opened as a synced store has them
    /// all queued, so adopting sync uploads them.
    ///
    /// - Throws: `StorageError.database(_:underlying:)` when the database cannot be opened or the
    ///   tables created.
    public convenience init(url: URL, table: String = "records") throws {
        var configuration = Configuration()
        // Another process may hold the write lock briefly: wait for it instead of failing.
        configuration.busyMode = .timeout(10)
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: url.path, configuration: configuration)
        } catch {
            throw StorageError.database(url.path, underlying: error)
        }
        try self.init(database: queue, table: table)
    }

    /// A synced store on the table `table` of an open GRDB database (queue or pool).
    ///
    /// Open one store per table and share it: observation sees the writes made through the
    /// database handle it was opened on.
    /// - Throws: `StorageError.database(_:underlying:)` when the tables cannot be created.
    public init(database: any DatabaseWriter, table: String = "records") throws {
        let backend = try SQLiteRecordBackend<Record>(database: database, table: table)
        let tables = SyncTables(table: table)
        do {
            try database.write { db in try tables.create(db) }
        } catch {
            throw StorageError.database("\(database.path) (table \(table))", underlying: error)
        }
        self.backend = backend
        self.tables = tables
        let signal = localWrites
        self.records = RecordStore(backend: SyncedRecordBackend(backend: backend, tables: tables, signal: signal))
    }

    /// Adds a record and queues it for the server, in one transaction.
    /// - Throws: `StorageError.duplicateRecord(id:in:)` when its id is already stored.
    public func insert(_ record: Record) async throws { try await records.insert(record) }

    /// Replaces the stored record (read at `record.revision`) and queues the change.
    /// - Throws: `RecordStoreError.staleRevision` when the stored record changed since it was
    ///   read; `StorageError.recordNotFound(id:in:)` when there is none.
    public func update(_ record: Record) async throws { try await records.update(record) }

    /// Inserts or replaces the record and queues the change.
    public func save(_ record: Record) async throws { try await records.save(record) }

    /// Deletes the record and queues the deletion; deleting a missing id does nothing.
    public func delete(id: Record.ID) async throws { try await records.delete(id: id) }

    /// Applies the changes `body` collects, and queues them, as one transaction.
    public func write(_ body: (inout RecordBatch<Record>) throws -> Void) async throws {
        try await records.write(body)
    }

    /// The client id this database sends as `Sync-Client-ID`: made once, when the database
    /// first held a synced table, and kept.
    public func clientID() async throws -> String {
        try await read { db, tables in try tables.value("client", in: db) ?? "" }
    }

    /// How many local changes wait to be acknowledged by the server.
    public func pendingCount() async throws -> Int {
        try await read { db, tables in try tables.pendingCount(in: db) }
    }

    /// ``pendingCount()`` with its place in the order of this store's transactions.
    func pendingReading() async throws -> PendingReading {
        try await read { db, tables in try tables.pendingReading(in: db) }
    }

    /// The local changes not yet acknowledged, oldest first.
    public func pendingChanges() async throws -> [PendingChange] {
        try await read { db, tables in
            try tables.entries(in: db).map { entry in
                PendingChange(
                    sequence: entry.seq, id: entry.id, isDeletion: entry.op == .delete, idempotencyKey: entry.key,
                    sentAs: entry.method, baseRevision: entry.base)
            }
        }
    }

    /// Drops a pending change, unsent: for a change the app no longer wants sent, e.g. one that
    /// stops every round with ``SyncError/writeRejected(status:reason:request:)``. The local
    /// record stays as it is; the next pull brings the server's copy when it changes. (A write the
    /// server refuses for good per record leaves the outbox by itself: ``SyncRefusal``.)
    public func discardPendingChange(sequence: Int64) async throws {
        try await backend.write(keepingRevisions: true) { [tables] db in
            try tables.remove(seq: sequence, in: db)
            return []
        }
    }

    /// Every write the server refused for good so far, oldest first (the store's refusal log).
    public func refusals() async throws -> [SyncRefusal<Record>] {
        try await read { db, tables in try RefusalLog.all(tables, in: db) }
    }

    /// Empties the refusal log (after the app has shown or handled what it holds).
    public func clearRefusals() async throws {
        try await backend.write(keepingRevisions: true) { [tables] db in
            try db.execute(sql: "DELETE FROM \(tables.refusals)")
            return []
        }
    }

    /// Every conflict decided so far, oldest first (the store's conflict log).
    public func conflicts() async throws -> [SyncConflict<Record>] {
        try await read { db, tables in try ConflictLog.all(tables, in: db) }
    }

    /// Empties the conflict log (after the app has shown or handled what it holds).
    public func clearConflicts() async throws {
        try await backend.write(keepingRevisions: true) { [tables] db in
            try db.execute(sql: "DELETE FROM \(tables.conflicts)")
            return []
        }
    }

    /// The cursor of the last feed page applied, or nil before the first (or during a re-fetch's start).
    public func cursor() async throws -> String? {
        try await read { db, tables in try tables.value(tables.cursorName, in: db) }
    }

    /// Writes sync bookkeeping (no record changes) in a transaction of its own.
    func bookkeeping<T: Sendable>(_ body: @escaping @Sendable (Database, SyncTables) throws -> T) async throws -> T {
        let tables = tables
        do {
            return try await backend.database.write { db in try body(db, tables) }
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as StorageError {
            throw error
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.database(detail: "\(backend.database.path) (table \(table)): \(error)")
        }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Database, SyncTables) throws -> T) async throws -> T {
        let tables = tables
        do {
            return try await backend.database.read { db in try body(db, tables) }
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as StorageError {
            throw error
        } catch let error as SyncError {
            throw error
        } catch {
            throw StorageError.database("\(backend.database.path) (table \(table))", underlying: error)
        }
    }
}
