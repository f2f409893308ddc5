import Foundation
import GRDB
import Networking
import Storage
import StorageSQLite

extension SyncEngine {
    /// Sends the outbox, oldest change first, until it is empty.
    func push() async throws {
        // A bound on the round's sends: each conflict replaces a record's pending changes by at
        // most one, so a healthy outbox empties well within it; past it the rest waits a round.
        var budget = try await store.pendingCount() * 3 + 8
        while budget > 0, let entry = try await store.read({ db, tables in try tables.first(in: db) }) {
            try Task.checkCancellation()
            budget -= 1
            try await send(entry)
            let pending = try await store.pendingCount()
            update { $0.pendingCount = pending }
        }
    }

    /// Sends one outbox entry and applies the answer.
    private func send(_ first: OutboxEntry) async throws {
        var entry = first
        if entry.method == nil {
            // The request is decided once, from the server's revision as last heard, and kept
            // with the entry: every retry, even after a restart, is the same request.
            let unsent = entry
            let decided = try await store.bookkeeping { db, tables -> OutboxEntry? in
                let entry = unsent
                let base = try tables.serverRevision(of: entry.id, in: db)
                let method: String
                switch (entry.op, base) {
                case (.save, nil): method = "POST"
                case (.save, _?): method = "PUT"
                case (.delete, _?): method = "DELETE"
                case (.delete, nil):
                    // Never reached the server: nothing to delete there.
                    try tables.remove(seq: entry.seq, in: db)
                    return nil
                }
                try tables.markSent(seq: entry.seq, method: method, base: base, in: db)
                var sent = entry
                sent.method = method
                sent.base = base
                return sent
            }
            guard let decided else { return }
            entry = decided
        }
        let clientID = try await store.clientID()
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
        switch response.status.code {
        case 200, 201:
            try await acknowledge(entry, response: response, request: described)
        case 409:
            try await conflict(entry, response: response, request: described)
        default:
            throw failure(response, described)
        }
    }

    /// Applies a success: the entry leaves the outbox, the server's revision becomes the next
    /// base, and when no later change of the record waits, the local copy becomes the server's.
    private func acknowledge(_ entry: OutboxEntry, response: HTTPResponse, request: String) async throws {
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
                problem: "the answer is for \(SyncWire.shown(answer.id)) (\(SyncWire.shown(answer.op))), "
                    + "not \(SyncWire.shown(entry.id)) (\(expected))", request: request)
        }
        if expected == "saved" {
            guard let record = answer.record, RecordID.string(for: record.id) == entry.id,
                record.revision == answer.revision
            else {
                throw SyncError.corruptAnswer(
                    problem: "the saved record is missing or not the entry's", request: request)
            }
        }
        let tables = store.tables
        try await store.backend.write(keepingRevisions: true) { db in
            guard try tables.entry(seq: entry.seq, in: db) != nil else { return [] }
            try tables.remove(seq: entry.seq, in: db)
            try tables.setServerRevision(of: entry.id, to: answer.record == nil ? nil : answer.revision, in: db)
            guard let record = answer.record, try !tables.hasPending(id: entry.id, in: db) else { return [] }
            return [.save(record)]
        }
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
            throw SyncError.server(status: 409, reason: problem.reason.map(SyncWire.shown), request: request)
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
        guard let recordID = RecordIDText.parse(entry.id, as: Record.ID.self) else {
            throw SyncError.corruptAnswer(
                problem: "the id \(SyncWire.shown(entry.id)) is not a record id", request: request)
        }
        let tables = store.tables
        let policy = configuration.conflictPolicy
        let reports = Locked<[SyncConflict<Record>]>([])
        try await store.backend.write(keepingRevisions: true) { db in
            guard try tables.entry(seq: entry.seq, in: db) != nil else { return [] }
            let (changes, report) = try ConflictLog.resolve(
                id: entry.id, recordID: recordID, kind: kind, server: server, policy: policy, tables: tables, in: db)
            reports.value = [report]
            return changes
        }
        report(reports.value)
    }
}
