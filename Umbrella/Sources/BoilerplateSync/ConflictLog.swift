import Foundation
import GRDB
import Storage

/// The server's side of a conflict: its record at a revision, or no record.
enum ServerSide<Record: Sendable>: Sendable {
    case saved(Record, revision: Int)
    /// No record: deleted (with its tombstone's revision, when known) or never created.
    case absent(revision: Int?)

    var record: Record? {
        if case .saved(let record, _) = self { record } else { nil }
    }

    var revision: Int? {
        switch self {
        case .saved(_, let revision): revision
        case .absent(let revision): revision
        }
    }
}

/// Decides conflicts by the policy and records each one, inside the transaction that applies
/// the decision.
enum ConflictLog {
    /// Decides the conflict on record `id` between its local state (read here, under the write
    /// lock) and `server`, and returns the record changes that carry the decision out. The pending
    /// changes of the record are replaced by what the decision needs sent, the server's revision
    /// is stored as the base of the next write, and the conflict is logged.
    static func resolve<Record: RevisionedRecord & Codable & Identifiable & Sendable>(
        id: String, recordID: Record.ID, kind: SyncConflictKind, server: ServerSide<Record>,
        policy: SyncConflictPolicy<Record>, tables: SyncTables, in db: Database
    ) throws -> (changes: [RecordChange<Record>], report: SyncConflict<Record>) where Record.ID: Codable & Sendable {
        let name = "\(db.description) (table \(tables.table))"
        let local = try tables.body(of: id, in: db).map { try RecordCoding.decode(Record.self, from: $0, in: name) }
        let decision: SyncDecision<Record>
        switch policy {
        case .serverWins: decision = .keptServer
        case .clientWins: decision = .keptLocal
        case .merge(let merge):
            if let local, let remote = server.record {
                decision = .merged(merge(local, remote))
            } else {
                decision = .keptServer
            }
        case .custom(let decide):
            decision = decide(
                SyncConflictInput(
                    id: id, kind: kind, local: local, server: server.record, serverRevision: server.revision))
        }
        try tables.removePending(id: id, in: db)
        let serverRevision: Int? = if case .saved(_, let revision) = server { revision } else { nil }
        try tables.setServerRevision(of: id, to: serverRevision, in: db)
        var changes: [RecordChange<Record>] = []
        switch decision {
        case .keptServer:
            if case .saved(let record, _) = server {
                if let copy = try tables.localCopy(of: record, id: id, in: db) { changes.append(.save(copy)) }
            } else if local != nil {
                changes.append(.delete(recordID))
            }
        case .keptLocal:
            if let local {
                try tables.enqueue(id: id, op: .save, body: try RecordCoding.encode(local, in: name), in: db)
            } else if serverRevision != nil {
                try tables.enqueue(id: id, op: .delete, body: nil, in: db)
            }
        case .merged(var merged):
            merged.revision = serverRevision ?? 0
            if let copy = try tables.localCopy(of: merged, id: id, in: db) {
                merged = copy
                changes.append(.save(copy))
            }
            try tables.enqueue(id: id, op: .save, body: try RecordCoding.encode(merged, in: name), in: db)
        }
        if let record = server.record, try tables.hasPending(id: id, in: db) {
            // The decision queued a change: keep the server's copy, in case that change is refused.
            try tables.setServerBody(of: id, to: try RecordCoding.encode(record, in: name), in: db)
        }
        let merged: Data? =
            if case .merged(let record) = decision { try RecordCoding.encode(record, in: name) } else { nil }
        try db.cachedStatement(
            sql: """
                INSERT INTO \(tables.conflicts) (id, kind, local, server, server_revision, decision, merged)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            id, kind.rawValue, try local.map { try RecordCoding.encode($0, in: name) },
            try server.record.map { try RecordCoding.encode($0, in: name) }, server.revision,
            decisionName(decision), merged,
        ])
        let report = SyncConflict(
            sequence: db.lastInsertedRowID, id: id, kind: kind, local: local, server: server.record,
            serverRevision: server.revision, decision: decision)
        return (changes, report)
    }

    static func decisionName<Record>(_ decision: SyncDecision<Record>) -> String {
        switch decision {
        case .keptServer: "keptServer"
        case .keptLocal: "keptLocal"
        case .merged: "merged"
        }
    }

    /// Every logged conflict, oldest first.
    static func all<Record: Codable & Sendable>(_ tables: SyncTables, in db: Database) throws -> [SyncConflict<Record>]
    {
        let name = "\(db.description) (table \(tables.table))"
        let rows = try Row.fetchAll(
            db,
            sql:
                "SELECT seq, id, kind, local, server, server_revision, decision, merged FROM \(tables.conflicts) ORDER BY seq"
        )
        return try rows.map { row in
            let decision: SyncDecision<Record>
            switch row[6] as String {
            case "keptLocal": decision = .keptLocal
            case "merged":
                let data: Data = row[7]
                decision = .merged(try RecordCoding.decode(Record.self, from: data, in: name))
            default: decision = .keptServer
            }
            let local: Data? = row[3]
            let server: Data? = row[4]
            return SyncConflict(
                sequence: row[0], id: row[1], kind: SyncConflictKind(rawValue: row[2]) ?? .remoteChange,
                local: try local.map { try RecordCoding.decode(Record.self, from: $0, in: name) },
                server: try server.map { try RecordCoding.decode(Record.self, from: $0, in: name) },
                serverRevision: row[5], decision: decision)
        }
    }
}
