import Foundation
import GRDB
import Networking
import Storage
import StorageSQLite
import _KitSupport

extension SyncEngine {
    /// Reads the feed from the stored cursor to its end, applying each page with its cursor in
    /// one transaction; on 410 starts over from the beginning (a full re-fetch).
    func pull() async throws {
        var (cursor, refetch) = try await store.read { db, tables in
            (try tables.value(tables.cursorName, in: db), try tables.value(tables.refetchName, in: db))
        }
        if refetch == "needed" {
            try await beginRefetch()
            (cursor, refetch) = (nil, "running")
        }
        update { $0.refetch = Self.refetch(refetch) }
        // The cursors this pull has read from: a page leading back to one is a cycle, which
        // would be read forever.
        var read = Set(cursor.map { [$0] } ?? [])
        // Halved when a page is over the byte limit: large legitimate records come in smaller pages.
        var limit = configuration.pageSize
        while true {
            try Task.checkCancellation()
            var query: [(String, String)] = []
            if let cursor { query.append(("after", cursor)) }
            query.append(("limit", String(limit)))
            let request = HTTPRequest(method: .get, path: path + "/changes", query: query)
            let described = "GET \(path)/changes" + (cursor.map { "?after=\(UntrustedText.sanitized($0))" } ?? "")
            let response: HTTPResponse
            do {
                response = try await exchange(request)
            } catch let tooLarge as PageTooLarge {
                guard limit > 1 else {
                    throw SyncError.corruptPage(
                        problem: "a page of one entry is over the client's response limit of \(tooLarge.limit) bytes",
                        request: described)
                }
                limit /= 2
                continue
            }
            switch response.status.code {
            case 200:
                if response.body.count > configuration.maximumPageBytes {
                    // Too big to read: ask for fewer entries, down to one; one entry over the
                    // limit is all that is refused (and it stops the feed here, typed).
                    guard limit > 1 else {
                        throw SyncError.corruptPage(
                            problem: "a page of one entry is \(response.body.count) bytes, over the limit of "
                                + "\(configuration.maximumPageBytes)", request: described)
                    }
                    limit /= 2
                    continue
                }
                let page = try checkedPage(response, after: cursor, read: read, limit: limit, request: described)
                let refetching = refetch == "running"
                let reports: [SyncConflict<Record>]
                let askedAgain: Bool
                do {
                    (reports, askedAgain) = try await apply(page, after: cursor, refetching: refetching)
                } catch is PageOutdated {
                    // Another engine on this database moved the cursor since this page was asked
                    // for: drop it and read on from where that engine got to.
                    (cursor, refetch) = try await store.read { db, tables in
                        (try tables.value(tables.cursorName, in: db), try tables.value(tables.refetchName, in: db))
                    }
                    if refetch == "needed" {
                        try await beginRefetch()
                        (cursor, refetch) = (nil, "running")
                    }
                    read = Set(cursor.map { [$0] } ?? [])
                    update { $0.refetch = Self.refetch(refetch) }
                    continue
                }
                report(reports)
                if refetching, !page.hasMore {
                    refetch = nil
                    // A refetchAll() during this re-fetch is kept for the next sync.
                    update { $0.refetch = askedAgain ? .needed : .none }
                }
                cursor = page.next
                read.insert(page.next)
                if !page.hasMore { return }
            case 410:
                let problem = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
                guard cursor != nil, problem?["refetch"] as? Bool == true else {
                    throw SyncError.server(
                        status: 410, reason: (problem?["reason"] as? String).map { UntrustedText.sanitized($0) },
                        request: described)
                }
                try await beginRefetch()
                (cursor, refetch) = (nil, "running")
                read = []
                update { $0.refetch = .running }
            case 400:
                let reason = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["reason"]
                if let reason = reason as? String, reason == "malformedCursor" {
                    throw SyncError.cursorRefused(reason: reason, request: described)
                }
                throw SyncError.server(
                    status: 400, reason: (reason as? String).map { UntrustedText.sanitized($0) }, request: described)
            default:
                throw failure(response, described)
            }
        }
    }

    /// Drops the cursor and starts reading from the beginning; pending changes stay.
    private func beginRefetch() async throws {
        try await store.bookkeeping { db, tables in
            try tables.set(tables.cursorName, to: nil, in: db)
            try tables.set(tables.refetchName, to: "running", in: db)
            try db.execute(sql: "DELETE FROM \(tables.seen)")
        }
    }

    /// A page checked against the protocol before anything of it is applied.
    private func checkedPage(
        _ response: HTTPResponse, after cursor: String?, read: Set<String>, limit: Int, request: String
    ) throws
        -> WirePage<Record>
    {
        let page: WirePage<Record>
        switch try SyncWire.decode(WirePage<Record>.self, from: response.body) {
        case .success(let decoded): page = decoded
        case .failure(.newerVersion(let found, let supported)):
            throw SyncError.appTooOld(found: found, supported: supported, request: request)
        case .failure(.undecodable(let problem)):
            throw SyncError.corruptPage(problem: problem, request: request)
        }
        guard page.protocol == SyncWire.version else {
            throw SyncError.corruptPage(problem: "protocol \(page.protocol) is not 1", request: request)
        }
        guard page.entries.count <= limit else {
            throw SyncError.corruptPage(
                problem: "\(page.entries.count) entries, more than the \(limit) asked for",
                request: request)
        }
        guard SyncWire.isValidCursor(page.next) else {
            throw SyncError.corruptPage(
                problem: "the next cursor \(UntrustedText.shown(page.next)) is malformed", request: request)
        }
        guard !(page.hasMore && page.next == cursor) else {
            // Asking again with the same cursor would get the same page, forever.
            throw SyncError.corruptPage(
                problem: "a page that says more follow without advancing the cursor", request: request)
        }
        guard page.next == cursor || !read.contains(page.next) else {
            // Back to a cursor this pull already read from: the pages would repeat forever.
            throw SyncError.corruptPage(
                problem: "the next cursor \(UntrustedText.shown(page.next)) was already read in this pull (a cycle)",
                request: request)
        }
        guard !(page.entries.isEmpty && cursor != nil && page.next != cursor) else {
            // The protocol: an empty page's next is the cursor sent. A moved one would skip changes.
            throw SyncError.corruptPage(
                problem: "an empty page moves the cursor to \(UntrustedText.shown(page.next))", request: request)
        }
        guard !(page.hasMore && page.entries.isEmpty) else {
            throw SyncError.corruptPage(problem: "an empty page that says more follow", request: request)
        }
        var ids = Set<String>()
        for (index, entry) in page.entries.enumerated() {
            let place = "entry \(index) (\(UntrustedText.shown(entry.id)))"
            guard ids.insert(entry.id).inserted else {
                throw SyncError.corruptPage(problem: "\(place) appears twice", request: request)
            }
            guard RecordIDText.parse(entry.id, as: Record.ID.self) != nil else {
                throw SyncError.corruptPage(problem: "\(place): the id is not a record id", request: request)
            }
            guard entry.revision >= 0 else {
                throw SyncError.corruptPage(problem: "\(place): negative revision", request: request)
            }
            switch entry.op {
            case "saved":
                guard let record = entry.record else {
                    throw SyncError.corruptPage(problem: "\(place): saved without a record", request: request)
                }
                guard RecordID.string(for: record.id) == entry.id, record.revision == entry.revision else {
                    throw SyncError.corruptPage(
                        problem: "\(place): the record's id or revision is not the entry's", request: request)
                }
            case "deleted":
                guard entry.record == nil else {
                    throw SyncError.corruptPage(problem: "\(place): deleted with a record", request: request)
                }
            default:
                throw SyncError.corruptPage(
                    problem: "\(place): unknown op \(UntrustedText.shown(entry.op))", request: request)
            }
        }
        return page
    }

    /// Applies a checked page and stores its cursor, in one transaction; at the end of a re-fetch,
    /// removes the local records the server no longer has (unless they have pending changes).
    /// Returns the conflicts decided, and whether a re-fetch was asked for while this one ran
    /// (it stays asked for).
    private func apply(
        _ page: WirePage<Record>, after sent: String?, refetching: Bool
    ) async throws -> (conflicts: [SyncConflict<Record>], refetchAskedAgain: Bool) {
        let tables = store.tables
        let policy = configuration.conflictPolicy
        let reports = Locked<[SyncConflict<Record>]>([])
        let askedAgain = Locked(false)
        try await store.backend.write(keepingRevisions: true) { db in
            // Compare and set: the page follows the cursor it was asked with, or it is outdated.
            guard try tables.value(tables.cursorName, in: db) == sent else { throw PageOutdated() }
            var changes: [RecordChange<Record>] = []
            var found: [SyncConflict<Record>] = []
            // With nothing pending (the usual first pull), no entry can conflict: skip the look-ups.
            let anyPending = try tables.pendingCount(in: db) > 0
            for entry in page.entries {
                guard let recordID = RecordIDText.parse(entry.id, as: Record.ID.self) else { continue }
                if refetching {
                    try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(tables.seen) (id) VALUES (?)")
                        .execute(arguments: [entry.id])
                }
                let server: ServerSide<Record> =
                    if let record = entry.record { .saved(record, revision: entry.revision) } else {
                        .absent(revision: entry.revision)
                    }
                if anyPending, try tables.hasPending(id: entry.id, in: db) {
                    let known = try tables.serverRevision(of: entry.id, in: db)
                    // The server's record as this client last heard it (its own acknowledged
                    // write, or a state a conflict was already decided against): nothing new.
                    switch server {
                    case .saved(_, let revision) where known == revision: continue
                    case .absent where known == nil: continue
                    case .absent where try !tables.exists(entry.id, in: db):
                        // Deleted here too: both sides agree, so the pending changes (ending in
                        // that deletion) have nothing left to do. Not a conflict.
                        try tables.removePending(id: entry.id, in: db)
                        try tables.setServerRevision(of: entry.id, to: nil, in: db)
                        continue
                    default: break
                    }
                    let (decided, report) = try ConflictLog.resolve(
                        id: entry.id, recordID: recordID, kind: .remoteChange, server: server, policy: policy,
                        tables: tables, in: db)
                    changes += decided
                    found.append(report)
                } else if let record = entry.record {
                    if let copy = try tables.localCopy(of: record, id: entry.id, in: db) { changes.append(.save(copy)) }
                    try tables.setServerRevision(of: entry.id, to: entry.revision, in: db)
                } else {
                    if try tables.exists(entry.id, in: db) { changes.append(.delete(recordID)) }
                    try tables.setServerRevision(of: entry.id, to: nil, in: db)
                }
            }
            try tables.set(tables.cursorName, to: page.next, in: db)
            if refetching, !page.hasMore {
                // The full read is complete: what it did not contain, the server no longer has.
                let gone = try String.fetchAll(
                    db,
                    sql: """
                        SELECT id FROM \(tables.records) WHERE id NOT IN (SELECT id FROM \(tables.seen))
                        AND id NOT IN (SELECT id FROM \(tables.outbox))
                        """)
                for id in gone {
                    if let recordID = RecordIDText.parse(id, as: Record.ID.self) { changes.append(.delete(recordID)) }
                }
                try db.execute(
                    sql: """
                        DELETE FROM \(tables.shadow) WHERE id NOT IN (SELECT id FROM \(tables.seen))
                        AND id NOT IN (SELECT id FROM \(tables.outbox))
                        """)
                try db.execute(sql: "DELETE FROM \(tables.seen)")
                // Cleared only if still this re-fetch's: "needed" is a request made since.
                if try tables.value(tables.refetchName, in: db) == "running" {
                    try tables.set(tables.refetchName, to: nil, in: db)
                } else {
                    askedAgain.withLock { $0 = true }
                }
            }
            reports.withLock { $0 = found }
            return changes
        }
        return (reports.withLock { $0 }, askedAgain.withLock { $0 })
    }
}

/// A page asked for after a cursor that is no longer the stored one (another engine on the same
/// database applied pages since): not applied.
struct PageOutdated: Error {}
