import Foundation
import GRDB
import Storage
import StorageSQLite
import _KitSupport

/// The backend behind ``SyncedRecordStore/records``: reads go to SQLite, writes go to SQLite
/// with their outbox entries in the same transaction.
struct SyncedRecordBackend<Record: RevisionedRecord & Codable & Identifiable & Sendable>: RecordBackend
where Record.ID: Codable & Sendable {
    let backend: SQLiteRecordBackend<Record>
    let tables: SyncTables
    let signal: LocalWriteSignal

    func fetchAll() async throws -> [Record] { try await backend.fetchAll() }
    func fetch(id: Record.ID) async throws -> Record? { try await backend.fetch(id: id) }
    func count() async throws -> Int { try await backend.count() }
    func fetch(_ plan: RecordQueryPlan<Record>) async throws -> [Record] { try await backend.fetch(plan) }
    func count(_ plan: RecordQueryPlan<Record>) async throws -> Int { try await backend.count(plan) }
    func changes(_ plan: RecordQueryPlan<Record>) -> AsyncThrowingStream<[Record], any Error> {
        backend.changes(plan)
    }

    /// Writes `changes` and their outbox entries in one transaction. A create starts at revision
    /// 0, as the server will store it.
    func apply(_ changes: [RecordChange<Record>]) async throws {
        let name = "\(backend.database.path) (table \(tables.table))"
        var prepared: [RecordChange<Record>] = []
        var queued: [(id: String, op: OutboxEntry.Op, body: Data?)] = []
        for change in changes {
            switch change {
            case .insert(var record):
                record.revision = 0
                prepared.append(.insert(record))
                queued.append((RecordID.string(for: record.id), .save, try RecordCoding.encode(record, in: name)))
            case .update(let record):
                prepared.append(change)
                queued.append((RecordID.string(for: record.id), .save, try RecordCoding.encode(record, in: name)))
            case .save(let record):
                prepared.append(change)
                queued.append((RecordID.string(for: record.id), .save, try RecordCoding.encode(record, in: name)))
            case .delete(let id):
                prepared.append(change)
                queued.append((RecordID.string(for: id), .delete, nil))
            }
        }
        let tables = tables
        let planned = prepared
        let queuedChanges = queued
        let pending = Locked(PendingReading(count: 0, order: 0))
        try await backend.write(keepingRevisions: false) { db in
            // Whether each id exists as the batch goes: deleting a missing record queues nothing.
            var exists: [String: Bool] = [:]
            for change in queuedChanges {
                try tables.keepServerCopy(of: change.id, in: db)
                switch change.op {
                case .save:
                    exists[change.id] = true
                    try tables.enqueue(id: change.id, op: .save, body: change.body, in: db)
                case .delete:
                    let present = try exists[change.id] ?? tables.exists(change.id, in: db)
                    exists[change.id] = false
                    if present { try tables.enqueue(id: change.id, op: .delete, body: nil, in: db) }
                }
            }
            let newPending = try tables.pendingReading(in: db)
            pending.withLock { $0 = newPending }
            return planned
        }
        signal.fire(pending.withLock { $0 })
    }
}

/// Tells the engines of a store that a local write committed, with the outbox's new size.
final class LocalWriteSignal: Sendable {
    private let handlers = Locked<[UUID: @Sendable (PendingReading) -> Void]>([:])

    func add(_ handler: @escaping @Sendable (PendingReading) -> Void) -> UUID {
        let token = UUID()
        handlers.withLock { $0[token] = handler }
        return token
    }

    func remove(_ token: UUID) { handlers.withLock { _ = $0.removeValue(forKey: token) } }

    func fire(_ pending: PendingReading) {
        for handler in handlers.withLock({ $0 }).values { handler(pending) }
    }
}
