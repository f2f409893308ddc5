import Foundation
import Hummingbird
import Storage

extension SyncRoutes {
    /// The three writes of the protocol.
    enum WriteKind: String {
        case create = "POST"
        case update = "PUT"
        case delete = "DELETE"

        /// The write as the hooks name it.
        var operation: SyncWrite<Record>.Operation {
            switch self {
            case .create: .create
            case .update: .update
            case .delete: .delete
            }
        }
    }

    /// One write, checked and ready to apply: the changes, the revisions they need, the answer
    /// they get when they commit, and the record to show in a conflict.
    struct PlannedWrite {
        var changes: [RecordChange<Record>]
        var requiring: [String: Int]
        var answer: SyncAnswer
        var id: Record.ID
        /// The record as the write stores it (nil for a delete).
        var stored: Record?
    }

    /// `POST /<path>`, `PUT /<path>/{id}`, `DELETE /<path>/{id}`.
    ///
    /// The order matters: headers are checked before the body is read (a hostile header costs no
    /// read), and a stored receipt is looked up before the write is planned (a replay is answered
    /// from the receipt even when the record has changed since).
    func write(
        _ kind: WriteKind, _ request: Request, id pathID: String?, context: some RequestContext
    ) async
        -> Response
    {
        do {
            let client = try Self.token(
                request.headers[values: SyncHeader.clientID], maximum: SyncHeader.maximumClientIDLength,
                missing: .missingClientID, invalid: SyncRequestError.invalidClientID)
            let key = try Self.token(
                request.headers[values: SyncHeader.idempotencyKey].map(Self.unquoted),
                maximum: SyncHeader.maximumIdempotencyKeyLength, missing: .missingIdempotencyKey,
                invalid: SyncRequestError.invalidIdempotencyKey)
            let base = try Self.baseRevision(request.headers[values: SyncHeader.baseRevision], for: kind)
            var request = request
            var body = Data()
            if kind != .delete {
                do {
                    body = Data(try await request.collectBody(upTo: configuration.maximumBodySize).readableBytesView)
                } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
                    throw SyncRequestError.bodyTooLarge(limit: configuration.maximumBodySize)
                }
            }
            // The record as decoded, not the body's bytes, identifies the write: a client that
            // encodes its retry anew (another key order, other spacing) sends the same write.
            let record = kind == .delete ? nil : try Self.record(from: body)
            let fingerprint = Self.fingerprint(
                kind, id: pathID, base: base, body: try record.map(RecordJSON.data) ?? Data())
            if let stored = try await backend.receipt(client: client, key: key) {
                return try Self.replay(stored, fingerprint: fingerprint)
            }
            let plan = try plan(kind, id: pathID, base: base, record: record)
            let receipt = WriteReceipt(
                client: client, key: key, fingerprint: fingerprint, response: try plan.answer.stored())
            var write: SyncWrite<Record>?
            if validate != nil || didApply != nil {
                // The hooks see the record the write replaces: read it now, and answer a write
                // that would conflict with the 409 it gets anyway, without asking the validator
                // about a change made on a revision that is gone.
                let previous = try await store.fetch(id: plan.id)
                if let reason = Self.conflict(kind, base: base, previous: previous) {
                    return try await decide(plan.id, answer: conflictAnswer(plan.id, reason: reason), receipt)
                }
                let checked = SyncWrite(
                    operation: kind.operation, id: plan.id, record: plan.stored, previous: previous, clientID: client)
                do {
                    try await validate?(checked)
                } catch let refusal as SyncWriteRefused {
                    let answer = try Self.problemAnswer(
                        status: 422, reason: "recordRefused", detail: refusal.message, field: refusal.field)
                    return try await decide(plan.id, answer: answer, receipt)
                }
                write = checked
            }
            do {
                try await backend.apply(plan.changes, requiring: plan.requiring, receipt: receipt)
            } catch is WriteReceiptTaken {
                return try await replay(client: client, key: key, fingerprint: fingerprint)
            } catch {
                guard let reason = Self.conflict(error, kind) else { throw error }
                return try await refuse(plan, reason: reason, receipt)
            }
            await afterCommit?()
            if let write, let didApply {
                do {
                    try await didApply(write)
                } catch {
                    // The write has committed and its receipt says so: the answer stands.
                    context.logger.error(
                        "Sync didApply failed", metadata: ["path": .string(path), "error": .string("\(error)")])
                }
            }
            return plan.answer.response
        } catch let error as SyncRequestError {
            return Self.problem(error)
        } catch {
            context.logger.error("Sync write failed", metadata: ["path": .string(path), "error": .string("\(error)")])
            return Self.serverError()
        }
    }

    /// What the write changes and answers when it commits.
    private func plan(_ kind: WriteKind, id pathID: String?, base: Int?, record: Record?) throws -> PlannedWrite {
        let pathText = try pathID.map { encoded in
            guard let text = encoded.removingPercentEncoding else { throw SyncRequestError.invalidRecordID(encoded) }
            return text
        }
        switch kind {
        case .create:
            guard var record else { throw SyncRequestError.invalidRecord(reason: "it is empty") }
            record.revision = 0
            let id = RecordID.string(for: record.id)
            let answer = SyncAnswer(
                status: 201, contentType: SyncAnswer.json, location: "/\(path)/\(Self.pathSegment(id))",
                body: try RecordJSON.data(
                    WireEntry(protocol: SyncProtocol.version, id: id, op: .saved, revision: 0, record: record)))
            return PlannedWrite(
                changes: [.insert(record)], requiring: [:], answer: answer, id: record.id, stored: record)
        case .update:
            let text = pathText ?? ""
            guard var record else { throw SyncRequestError.invalidRecord(reason: "it is empty") }
            let bodyID = RecordID.string(for: record.id)
            guard bodyID == text else {
                guard Self.recordID(from: text) != nil else { throw SyncRequestError.invalidRecordID(text) }
                throw SyncRequestError.idMismatch(path: text, body: bodyID)
            }
            let revision = base ?? 0
            record.revision = revision
            var stored = record
            stored.revision = revision + 1
            let answer = SyncAnswer(
                status: 200, contentType: SyncAnswer.json,
                body: try RecordJSON.data(
                    WireEntry(
                        protocol: SyncProtocol.version, id: text, op: .saved, revision: revision + 1, record: stored)))
            return PlannedWrite(
                changes: [.update(record)], requiring: [:], answer: answer, id: record.id, stored: stored)
        case .delete:
            let text = pathText ?? ""
            guard let id = Self.recordID(from: text) else { throw SyncRequestError.invalidRecordID(text) }
            let revision = base ?? 0
            let answer = SyncAnswer(
                status: 200, contentType: SyncAnswer.json,
                body: try RecordJSON.data(
                    WireEntry<Record>(
                        protocol: SyncProtocol.version, id: text, op: .deleted, revision: revision, record: nil)))
            return PlannedWrite(
                changes: [.delete(id)], requiring: [text: revision], answer: answer, id: id, stored: nil)
        }
    }

    /// Answers a write the records refused (a stale revision, a missing or existing record) with
    /// 409 and the server's record, and keeps that answer as the key's receipt.
    private func refuse(_ plan: PlannedWrite, reason: String, _ receipt: WriteReceipt) async throws -> Response {
        try await decide(plan.id, answer: conflictAnswer(plan.id, reason: reason), receipt)
    }

    /// The 409 answer of a conflict: `reason` and the server's record now.
    private func conflictAnswer(_ id: Record.ID, reason: String) async throws -> SyncAnswer {
        let current = try await store.fetch(id: id).map { record in
            WireEntry<Record>(
                id: RecordID.string(for: record.id), op: .saved, revision: record.revision, record: record)
        }
        let messages = [
            "staleRevision": "The record was changed since the base revision; the body holds the server's record.",
            "recordMissing": "The record does not exist (it was deleted, or never created).",
            "alreadyExists": "A record with this id exists; the body holds it.",
        ]
        return try Self.problemAnswer(
            status: 409, reason: reason, detail: messages[reason] ?? reason, current: current, hasCurrent: true)
    }

    /// Keeps `answer` — a write decided without a change: a conflict, or refused by the app's
    /// rules — as the key's receipt, in a transaction of its own, and sends it.
    private func decide(_ id: Record.ID, answer: SyncAnswer, _ receipt: WriteReceipt) async throws -> Response {
        var decided = receipt
        decided.response = try answer.stored()
        do {
            try await backend.apply([], requiring: [:], receipt: decided)
        } catch is WriteReceiptTaken {
            return try await replay(client: receipt.client, key: receipt.key, fingerprint: receipt.fingerprint)
        }
        return answer.response
    }

    /// The stored answer to `key`, read after a write found it taken.
    private func replay(client: String, key: String, fingerprint: String) async throws -> Response {
        guard let stored = try await backend.receipt(client: client, key: key) else {
            // Taken, then pruned in between: only a retention shorter than a request can do that.
            throw WriteReceiptTaken(client: client, key: key)
        }
        return try Self.replay(stored, fingerprint: fingerprint)
    }

    /// The stored answer, sent again as it was, or 422 when the key named another request.
    static func replay(_ stored: WriteReceipt, fingerprint: String) throws -> Response {
        guard stored.fingerprint == fingerprint else {
            return problem(.idempotencyKeyReused(key: stored.key))
        }
        var response = try SyncAnswer(stored: stored.response).response
        response.headers[SyncHeader.replayed] = "true"
        return response
    }

    /// The `reason` of the conflict a write meets on `previous` (the record as read before it),
    /// or nil when it is made on the current state.
    static func conflict(_ kind: WriteKind, base: Int?, previous: Record?) -> String? {
        switch kind {
        case .create: return previous == nil ? nil : "alreadyExists"
        case .update, .delete:
            guard let previous else { return "recordMissing" }
            return previous.revision == base ? nil : "staleRevision"
        }
    }

    /// The `reason` of a refused write, or nil for an error that is not a conflict.
    static func conflict(_ error: any Error, _ kind: WriteKind) -> String? {
        if let error = error as? RecordStoreError, case .staleRevision = error { return "staleRevision" }
        guard let error = error as? StorageError else { return nil }
        switch error {
        case .recordNotFound: return "recordMissing"
        case .duplicateRecord: return kind == .create ? "alreadyExists" : nil
        default: return nil
        }
    }
}
