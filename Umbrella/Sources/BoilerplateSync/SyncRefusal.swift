import Foundation
import GRDB
import Storage

/// A write the server refused for good — its rules refused the record (422 `recordRefused`), or
/// the write cannot be taken as sent (413 over its size limit, 422 `invalidRecord`, 400
/// `invalidRecordID`) — and what the client did about it.
///
/// Sending such a write again cannot help (SyncProtocolV1, "Rules of the server"), so it is not
/// kept: it leaves the outbox in the transaction that logs it (``SyncedRecordStore/refusals()``)
/// and sets the local record back (``outcome``), and is sent to every
/// ``SyncEngine/refusalReports()`` sequence. Sync goes on with the other records and the pull.
/// The refused record is here so the app can show it and let the user correct it: a corrected
/// record is a new write.
public struct SyncRefusal<Record: Sendable>: Sendable {
    /// The refusal's place in the store's refusal log, from 1, in the order they were received.
    public var sequence: Int64
    /// The record's id, as the protocol writes it.
    public var id: String
    /// The refused record as it was sent; nil for a refused deletion.
    public var record: Record?
    /// Whether the refused write was a deletion.
    public var isDeletion: Bool
    /// The server's status: 422, 413 or 400.
    public var status: Int
    /// The problem's `reason` (`recordRefused`, `bodyTooLarge`, …), when the server gave one.
    public var reason: String?
    /// The server's sentence saying what is wrong, when it gave one (control characters
    /// escaped, at most 500 characters).
    public var detail: String?
    /// The record's field the server blamed, when it named one.
    public var field: String?
    /// What became of the local record.
    public var outcome: SyncRefusalOutcome
}

extension SyncRefusal: Equatable where Record: Equatable {}

/// What the client did with the local record after a ``SyncRefusal``.
public enum SyncRefusalOutcome: String, Sendable, Equatable, Codable {
    /// The server has the record: the local copy is its copy again (at a local revision past the
    /// refused edit's, so an editor's copy of the refused edit is stale). A refused deletion
    /// brings the record back.
    case restoredServerCopy
    /// The server never had the record (a refused create): it is removed locally.
    case removedLocally
    /// A later change of the record waits in the outbox: the local record is that change, which
    /// is sent as usual (on the server's revision; a create when the server never had it).
    case keptLaterChanges
    /// The server's copy was not known locally: the local record stays as it was until the
    /// server's next change of it arrives.
    case keptLocalCopy
}

/// Carries out and records refusals, inside the transaction that drops the refused write.
enum RefusalLog {
    /// Drops `entry` from the outbox, sets the local record back (see ``SyncRefusalOutcome``),
    /// and logs the refusal; returns the record changes and the report.
    static func refuse<Record: RevisionedRecord & Codable & Identifiable & Sendable>(
        _ entry: OutboxEntry, recordID: Record.ID?, as type: Record.Type, status: Int, reason: String?,
        detail: String?, field: String?, tables: SyncTables, in db: Database
    ) throws -> (changes: [RecordChange<Record>], report: SyncRefusal<Record>) where Record.ID: Codable & Sendable {
        let name = "\(db.description) (table \(tables.table))"
        try tables.remove(seq: entry.seq, in: db)
        var changes: [RecordChange<Record>] = []
        let outcome: SyncRefusalOutcome
        if try tables.hasPending(id: entry.id, in: db) {
            outcome = .keptLaterChanges
        } else if try tables.serverRevision(of: entry.id, in: db) != nil {
            if let body = try tables.serverBody(of: entry.id, in: db) {
                let server = try RecordCoding.decode(Record.self, from: body, in: name)
                if let copy = try tables.localCopy(of: server, id: entry.id, in: db) { changes.append(.save(copy)) }
                try tables.setServerBody(of: entry.id, to: nil, in: db)
                outcome = .restoredServerCopy
            } else {
                outcome = .keptLocalCopy
            }
        } else {
            if let recordID, try tables.exists(entry.id, in: db) { changes.append(.delete(recordID)) }
            outcome = .removedLocally
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO \(tables.refusals) (id, op, record, status, reason, detail, field, outcome)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            entry.id, entry.op.rawValue, entry.body, status, reason, detail, field, outcome.rawValue,
        ])
        let report = SyncRefusal(
            sequence: db.lastInsertedRowID, id: entry.id,
            record: entry.body.flatMap { try? RecordCoding.decode(Record.self, from: $0, in: name) },
            isDeletion: entry.op == .delete, status: status, reason: reason, detail: detail, field: field,
            outcome: outcome)
        return (changes, report)
    }

    /// Every logged refusal, oldest first.
    static func all<Record: Codable & Sendable>(_ tables: SyncTables, in db: Database) throws -> [SyncRefusal<Record>] {
        let name = "\(db.description) (table \(tables.table))"
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT seq, id, op, record, status, reason, detail, field, outcome FROM \(tables.refusals)
                ORDER BY seq
                """)
        return rows.map { row in
            let body: Data? = row[3]
            return SyncRefusal(
                sequence: row[0], id: row[1],
                record: body.flatMap { try? RecordCoding.decode(Record.self, from: $0, in: name) },
                isDeletion: row[2] == "delete", status: row[4], reason: row[5], detail: row[6], field: row[7],
                outcome: SyncRefusalOutcome(rawValue: row[8]) ?? .keptLocalCopy)
        }
    }
}
