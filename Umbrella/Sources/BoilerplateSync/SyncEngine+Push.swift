import Foundation
import GRDB
import Networking
import Storage
import StorageSQLite
import _KitSupport

extension SyncEngine {
    /// Sends the outbox, oldest change first, until it is empty or holds only records set aside.
    ///
    /// A failure that concerns one record alone (``concernsOneRecord(_:)``: an answer that does
    /// not decode, a 4xx the protocol does not use for writes, such as 431 for an id too long for
    /// the server's request line) sets that record aside for the round: its changes stay in the
    /// outbox, in order, and the other records go on. The round ends with the first such failure
    /// once it has pulled; the loop tries again after its backoff.
    func push(_ setAside: inout SetAside) async throws {
        let clientID = try await store.clientID()
        // A bound on the round's sends: each conflict replaces a record's pending changes by at
        // most one, so a healthy outbox empties well within it; past it the rest waits a round.
        var budget = try await store.pendingCount() * 3 + 8
        let acknowledged = Acknowledgements<Record>()
        do {
            batches: while budget > 0 {
                let batch = try await store.bookkeeping { db, tables in
                    try Self.prepare(batchOf: 200, tables, in: db)
                }
                var sent = false
                for entry in batch where !setAside.records.contains(entry.id) {
                    try Task.checkCancellation()
                    budget -= 1
                    sent = true
                    do {
                        // A conflict rewrites the record's pending changes: read the outbox again.
                        if try await send(entry, clientID: clientID, acknowledged: acknowledged) {
                            try await apply(acknowledged)
                            continue batches
                        }
                    } catch let error as SyncError where Self.concernsOneRecord(error) {
                        setAside.records.insert(entry.id)
                        setAside.firstFailure = setAside.firstFailure ?? error
                    }
                    if acknowledged.count >= Acknowledgements<Record>.limit { try await apply(acknowledged) }
                }
                try await apply(acknowledged)
                // Empty, or only set-aside records at its head (past 200 of them, the rest waits).
                if !sent { break }
            }
        } catch {
            // What the server acknowledged is kept even when the round fails: applying it again
            // after a lost transaction would be safe (each entry is sent again with its key and
            // answered from the server's receipt), but it would cost a request each.
            try? await apply(acknowledged)
            throw error
        }
    }

    /// The oldest `count` entries, with the request of each record's first one decided and kept
    /// (one transaction for the batch, not one per entry). A deletion of a record the server
    /// never had is dropped here: nothing to send.
    private static func prepare(batchOf count: Int, _ tables: SyncTables, in db: Database) throws -> [OutboxEntry] {
        var batch: [OutboxEntry] = []
        var earlier = Set<String>()
        for var entry in try tables.entries(limit: count, in: db) {
            defer { earlier.insert(entry.id) }
            if entry.method == nil, !earlier.contains(entry.id) {
                guard try decide(&entry, tables, in: db) else { continue }
            }
            batch.append(entry)
        }
        return batch
    }

    /// Decides the request `entry` is sent as, from the server's revision as last heard, and keeps
    /// it with the entry, so every retry, even after a restart, is the same request. Returns false
    /// (and drops the entry) for a deletion of a record the server never had.
    private static func decide(_ entry: inout OutboxEntry, _ tables: SyncTables, in db: Database) throws -> Bool {
        let base = try tables.serverRevision(of: entry.id, in: db)
        let method: String
        switch (entry.op, base) {
        case (.save, nil): method = "POST"
        case (.save, _?): method = "PUT"
        case (.delete, _?): method = "DELETE"
        case (.delete, nil):
            try tables.remove(seq: entry.seq, in: db)
            return false
        }
        try tables.markSent(seq: entry.seq, method: method, base: base, in: db)
        entry.method = method
        entry.base = base
        return true
    }

    /// Sends one outbox entry and applies the answer (a success joins `acknowledged`, applied
    /// with others in one transaction); returns whether the record's other pending changes were
    /// rewritten (a conflict), so the caller reads the outbox again.
    private func send(
        _ first: OutboxEntry, clientID: String, acknowledged: Acknowledgements<Record>
    ) async throws -> Bool {
        var entry = first
        if entry.method == nil {
            // A later change of a record whose earlier one was just acknowledged: its base is the
            // revision that answer gave, so that answer is applied first.
            try await apply(acknowledged)
            let unsent = entry
            let decided = try await store.bookkeeping { db, tables -> OutboxEntry? in
                var entry = unsent
                return try Self.decide(&entry, tables, in: db) ? entry : nil
            }
            guard let decided else { return false }
            entry = decided
        }
        var headers: HTTPHeaders = ["Sync-Client-ID": clientID, "Idempotency-Key": entry.key]
        let request: HTTPRequest
        switch entry.method {
        case "POST":
            request = HTTPRequest(
                method: .post, path: path, headers: headers,
                body: .data(entry.body ?? Data(), contentType: "application/json"))
        case "PUT":
            headers["Sync-Base-Revision"] = String(entry.base ?? 0)
            request = HTTPRequest(
                method: .put, path: path + "/" + Self.segment(entry.id), headers: headers,
                body: .data(entry.body ?? Data(), contentType: "application/json"))
        default:
            headers["Sync-Base-Revision"] = String(entry.base ?? 0)
            request = HTTPRequest(method: .delete, path: path + "/" + Self.segment(entry.id), headers: headers)
        }
        let described = "\(request.method) \(request.path)"
        let response = try await exchange(request)
        if response.status.code == 200 || response.status.code == 201 {
            acknowledged.append(entry, try answer(to: entry, in: response, request: described))
            return false
        }
        // Conflicts and refusals read and rewrite what acknowledgements change.
        try await apply(acknowledged)
        switch response.status.code {
        case 409:
            try await conflict(entry, response: response, request: described)
            return true
        case 413, 422:
            try await refuse(entry, response: response)
            return false
        case 400 where Self.problem(response.body)?["reason"] as? String == "invalidRecordID":
            try await refuse(entry, response: response)
            return false
        default:
            throw failure(response, described)
        }
    }

    /// The server's answer to a successful write of `entry`, checked against it.
    private func answer(to entry: OutboxEntry, in response: HTTPResponse, request: String) throws -> WireEntry<Record> {
        let answer: WireEntry<Record>
        switch try SyncWire.decode(WireEntry<Record>.self, from: response.body) {
        case .success(let decoded): answer = decoded
        case .failure(.newerVersion(let found, let supported)):
            throw SyncError.appTooOld(found: found, supported: supported, request: request)
        case .failure(.undecodable(let problem)):
            throw SyncError.corruptAnswer(problem: problem, request: request)
        }
        let expected = entry.op == .delete ? "deleted" : "saved"
        guard answer.id == entry.id, answer.op == expected, answer.revision >= 0 else {
            throw SyncError.corruptAnswer(
                problem: "the answer is for \(UntrustedText.shown(answer.id)) (\(UntrustedText.shown(answer.op))), "
                    + "not \(UntrustedText.shown(entry.id)) (\(expected))", request: request)
        }
        if expected == "saved" {
            guard let record = answer.record, RecordID.string(for: record.id) == entry.id,
                record.revision == answer.revision
            else {
                throw SyncError.corruptAnswer(
                    problem: "the saved record is missing or not the entry's", request: request)
            }
        }
        return answer
    }

    /// Applies the acknowledgements gathered, in one transaction, and empties `acknowledged`. For
    /// each: the entry leaves the outbox, the server's revision becomes the next base, and when no
    /// later change of the record waits, the local copy becomes the server's.
    func apply(_ acknowledged: Acknowledgements<Record>) async throws {
        let answers = acknowledged.answers
        guard !answers.isEmpty else { return }
        let tables = store.tables
        let pending = Locked(PendingReading(count: 0, order: 0))
        try await store.backend.write(keepingRevisions: true) { db in
            var changes: [RecordChange<Record>] = []
            for (entry, answer) in answers {
                guard try tables.entry(seq: entry.seq, in: db) != nil else { continue }
                try tables.remove(seq: entry.seq, in: db)
                try tables.setServerRevision(of: entry.id, to: answer.record == nil ? nil : answer.revision, in: db)
                guard let record = answer.record else { continue }
                if try tables.hasPending(id: entry.id, in: db) {
                    // A later change waits: keep the server's copy, in case that change is refused.
                    let name = "\(db.description) (table \(tables.table))"
                    try tables.setServerBody(of: entry.id, to: try RecordCoding.encode(record, in: name), in: db)
                    continue
                }
                if let copy = try tables.localCopy(of: record, id: entry.id, in: db) { changes.append(.save(copy)) }
            }
            let newPending = try tables.pendingReading(in: db)
            pending.withLock { $0 = newPending }
            return changes
        }
        acknowledged.removeAll()
        show(pending.withLock { $0 })
    }

    /// The problem body of an answer, when it is a JSON object.
    static func problem(_ body: Data) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: body) as? [String: Any]
    }

    /// Handles a write refused for good (422, 413, 400 `invalidRecordID`): sending it again
    /// cannot help, so it leaves the outbox, the local record is set back, and the refusal is
    /// logged and reported — one transaction — and sync goes on (SyncProtocolV1, "Rules of the
    /// server"). Other 400s are the client's own fault on every write and stop the round.
    private func refuse(_ entry: OutboxEntry, response: HTTPResponse) async throws {
        let problem = Self.problem(response.body)
        let reason = (problem?["reason"] as? String).map { UntrustedText.sanitized($0) }
        let detail = (problem?["detail"] as? String).map { UntrustedText.sanitized($0, limit: 500) }
        let field = (problem?["field"] as? String).map { UntrustedText.sanitized($0) }
        let status = response.status.code
        let recordID = RecordIDText.parse(entry.id, as: Record.ID.self)
        let tables = store.tables
        let reports = Locked<SyncRefusal<Record>?>(nil)
        let pending = Locked(PendingReading(count: 0, order: 0))
        try await store.backend.write(keepingRevisions: true) { db in
            guard try tables.entry(seq: entry.seq, in: db) != nil else { return [] }
            let (changes, report) = try RefusalLog.refuse(
                entry, recordID: recordID, as: Record.self, status: status, reason: reason, detail: detail,
                field: field, tables: tables, in: db)
            reports.withLock { $0 = report }
            let newPending = try tables.pendingReading(in: db)
            pending.withLock { $0 = newPending }
            return changes
        }
        show(pending.withLock { $0 })
        if let refusal = reports.withLock({ $0 }) { report(refusal) }
    }

    /// Decides a 409 by the policy and reports it.
    private func conflict(_ entry: OutboxEntry, response: HTTPResponse, request: String) async throws {
        let problem: WireProblem<Record>
        switch try SyncWire.decode(WireProblem<Record>.self, from: response.body) {
        case .success(let decoded): problem = decoded
        case .failure(.newerVersion(let found, let supported)):
            throw SyncError.appTooOld(found: found, supported: supported, request: request)
        case .failure(.undecodable(let detail)):
            throw SyncError.corruptAnswer(problem: detail, request: request)
        }
        let kind: SyncConflictKind
        switch problem.reason {
        case "staleRevision": kind = .staleRevision
        case "recordMissing": kind = .recordMissing
        case "alreadyExists": kind = .alreadyExists
        default:
            throw SyncError.server(
                status: 409, reason: problem.reason.map { UntrustedText.sanitized($0) }, request: request)
        }
        let server: ServerSide<Record>
        if let current = problem.current {
            guard current.id == entry.id else {
                throw SyncError.corruptAnswer(problem: "the conflict's record is another one", request: request)
            }
            if current.op == "saved", let record = current.record, RecordID.string(for: record.id) == entry.id {
                server = .saved(record, revision: current.revision)
            } else if current.op == "deleted", current.record == nil {
                server = .absent(revision: current.revision)
            } else {
                throw SyncError.corruptAnswer(problem: "the conflict's current entry is malformed", request: request)
            }
        } else {
            guard kind == .recordMissing else {
                throw SyncError.corruptAnswer(
                    problem: "a \(kind.rawValue) conflict without a current record", request: request)
            }
            server = .absent(revision: nil)
        }
        if try isOwnWrite(entry, kind: kind, server: server) {
            // The server already holds what this entry asks for: its receipt expired after the
            // write committed (the protocol's retention), or another device made the same change.
            // Not a conflict: the outcome is the one asked for.
            let answer = WireEntry<Record>(
                protocol: SyncWire.version, id: entry.id, op: server.record == nil ? "deleted" : "saved",
                revision: server.revision ?? 0, record: server.record)
            let acknowledged = Acknowledgements<Record>()
            acknowledged.append(entry, answer)
            try await apply(acknowledged)
            return
        }
        guard let recordID = RecordIDText.parse(entry.id, as: Record.ID.self) else {
            throw SyncError.corruptAnswer(
                problem: "the id \(UntrustedText.shown(entry.id)) is not a record id", request: request)
        }
        let tables = store.tables
        let policy = configuration.conflictPolicy
        let reports = Locked<[SyncConflict<Record>]>([])
        let pending = Locked(PendingReading(count: 0, order: 0))
        try await store.backend.write(keepingRevisions: true) { db in
            guard try tables.entry(seq: entry.seq, in: db) != nil else { return [] }
            let (changes, report) = try ConflictLog.resolve(
                id: entry.id, recordID: recordID, kind: kind, server: server, policy: policy, tables: tables, in: db)
            reports.withLock { $0 = [report] }
            let newPending = try tables.pendingReading(in: db)
            pending.withLock { $0 = newPending }
            return changes
        }
        show(pending.withLock { $0 })
        report(reports.withLock { $0 })
    }

    /// Whether the server's state is exactly what `entry` asks for: a deletion of a record the
    /// server no longer has, or the entry's record stored at the revision the write would give it
    /// (its base + 1, or 0 for a create).
    private func isOwnWrite(_ entry: OutboxEntry, kind: SyncConflictKind, server: ServerSide<Record>) throws -> Bool {
        switch (entry.op, kind, server) {
        case (.delete, .recordMissing, .absent):
            return true
        case (.save, .staleRevision, .saved(let current, let revision)),
            (.save, .alreadyExists, .saved(let current, let revision)):
            let expected = entry.method == "POST" ? 0 : (entry.base ?? -1) + 1
            guard revision == expected, let body = entry.body,
                var mine = try? RecordJSON.value(Record.self, from: body)
            else { return false }
            mine.revision = revision
            return try RecordJSON.data(mine) == RecordJSON.data(current)
        default:
            return false
        }
    }
}

/// Successful answers not yet applied: a push applies them in one transaction per
/// ``limit`` (or sooner, before anything that reads what they change), not one per answer. An
/// answer lost with the process costs nothing but a request: its entry is sent again with the
/// same key and answered from the server's receipt.
final class Acknowledgements<Record: Decodable & Sendable> {
    /// The most answers held before they are applied.
    static var limit: Int { 128 }

    private(set) var answers: [(OutboxEntry, WireEntry<Record>)] = []
    var count: Int { answers.count }

    func append(_ entry: OutboxEntry, _ answer: WireEntry<Record>) { answers.append((entry, answer)) }
    func removeAll() { answers.removeAll(keepingCapacity: true) }
}

/// The records a round has set aside after a failure that concerned them alone, and the first
/// such failure, which the round ends with.
struct SetAside {
    var records = Set<String>()
    var firstFailure: SyncError?
}

extension SyncEngine {
    /// Whether `error`, met sending one record's change, says nothing of the others: an answer
    /// that does not decode, or a 4xx the protocol does not use for writes (404, 409 with an
    /// unknown reason, 414, 431…). Not 400 (every write would meet it), 401/403 (a pause), 408
    /// and 429 (the server's state), nor a 5xx or a network failure.
    static func concernsOneRecord(_ error: SyncError) -> Bool {
        switch error {
        case .corruptAnswer: true
        case .server(let status, _, _): (400..<500).contains(status) && ![400, 401, 403, 408, 429].contains(status)
        default: false
        }
    }
}
