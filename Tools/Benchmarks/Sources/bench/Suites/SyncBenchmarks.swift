import BoilerplateSync
import Foundation
import Hummingbird
import Networking
import Storage
import StorageSQLite
import StorageSyncServer

/// Benchmarks of the sync client (issue 33) against the same data moved by hand.
///
/// A Hummingbird server in this process serves the kit's `SyncRoutes` over SQLite tables with a
/// change feed, on 127.0.0.1. Both sides talk to the same server through the kit's `HTTPClient`,
/// so the server's work is the same for both, and the ratio shows what the client's bookkeeping
/// (outbox, cursor, conflict checks, all in the write's transaction) costs:
///
/// - `first-pull-10k`: a new `SyncedRecordStore` pulls a feed of 10 000 records with
///   `SyncEngine.sync()`, against plain `HTTPClient` GETs of the same feed pages (same page size)
///   decoded with `JSONDecoder` and saved page by page into a plain `RecordStore` on SQLite.
/// - `push-1k`: 1 000 local edits of synced records (one batch) pushed by `SyncEngine.sync()`,
///   against the same 1 000 edits in a plain `RecordStore` followed by one `PUT` each with the
///   protocol's headers, the base revision kept in memory from the previous answer. The engine's
///   round also reads the feed after pushing (its own 1 000 changes come back), which is part of
///   what a sync costs.
///
/// A smoke run moves 500 and 50 records. The target for both is 0.8: the bookkeeping costs at most a quarter.
enum SyncBenchmarks {
    /// The synced record: a note with the server's revision.
    struct Note: Codable, Identifiable, Sendable, RevisionedRecord {
        var id: String
        var title: String
        var body: String
        var revision = 0
    }

    /// A feed page as the protocol sends it, for the hand-written peer.
    struct Page: Decodable {
        struct Entry: Decodable {
            var id: String
            var op: String
            var revision: Int?
            var record: Note?
        }
        var entries: [Entry]
        var next: String?
        var hasMore: Bool
    }

    /// A write's answer, for the hand-written peer.
    struct Answer: Decodable {
        var revision: Int
    }

    static let pageSize = 500

    static func note(_ index: Int, edit: Int = 0) -> Note {
        Note(id: "note-\(index)", title: "Note \(index)", body: "Body of note \(index), edit \(edit), with some text.")
    }

    /// The cases; a smoke run (CI's, which proves each case runs) moves a twentieth of the data.
    static func cases(smoke: Bool) async throws -> [BenchmarkCase] {
        let pullCount = smoke ? 500 : 10_000
        let pushCount = smoke ? 50 : 1_000
        let folder = try ScratchFolders.make("sync-bench")
        let fresh = { folder.appendingPathComponent("\(UUID().uuidString).sqlite") }

        // The server: one table of 10 000 records to pull, one of 1 000 to push edits to.
        let pulled = try RecordStore<Note>(sqlite: fresh(), table: "pulled", changeFeed: true)
        try await pulled.write { batch in for index in 0..<pullCount { batch.insert(note(index)) } }
        // Each side pushes to a table of its own, so neither makes the other's base revisions stale.
        let router = Hummingbird.Router()
        let group = router.group("sync")
        try await SyncRoutes(store: pulled, path: "pulled").add(to: group)
        for table in ["pushed", "pushedbyhand"] {
            let pushed = try RecordStore<Note>(sqlite: fresh(), table: table, changeFeed: true)
            try await pushed.write { batch in for index in 0..<pushCount { batch.insert(note(index)) } }
            try await SyncRoutes(store: pushed, path: table).add(to: group)
        }
        let port = try await LoopbackServer.start(router, label: "sync-bench-server")
        let base = URL(string: "http://127.0.0.1:\(port)/")!
        let client = Networking.HTTPClient(baseURL: base)
        let configuration = SyncEngineConfiguration<Note>(pageSize: pageSize)

        // The push case's long-lived replicas: each unit edits every record once and pushes.
        let replica = try SyncedRecordStore<Note>(url: fresh(), table: "pushed")
        let engine = SyncEngine(store: replica, client: client, path: "sync/pushed", configuration: configuration)
        try await engine.sync()
        let plain = try RecordStore<Note>(sqlite: fresh(), table: "pushedbyhand")
        let plainClient = "bench-peer-\(UUID().uuidString)"
        var serverRevisions: [String: Int] = [:]
        try await pullByHand(client: client, path: "sync/pushedbyhand", into: plain) {
            serverRevisions[$0.id] = $0.revision
        }
        let revisions = Revisions(serverRevisions)
        let edits = Counter()

        return [
            BenchmarkCase(
                suite: "sync", name: "first-pull-10k", peer: "HTTPClient pages + RecordStore writes", target: 0.8,
                ours: {
                    let url = fresh()
                    defer { StorageBenchmarks.removeDatabase(url) }
                    let store = try SyncedRecordStore<Note>(url: url, table: "pulled")
                    let engine = SyncEngine(
                        store: store, client: client, path: "sync/pulled", configuration: configuration)
                    try await engine.sync()
                    guard try await store.records.count() == pullCount else { throw BenchError.wrongCount }
                },
                theirs: {
                    let url = fresh()
                    defer { StorageBenchmarks.removeDatabase(url) }
                    let store = try RecordStore<Note>(sqlite: url, table: "pulled")
                    try await pullByHand(client: client, path: "sync/pulled", into: store) { _ in }
                    guard try await store.count() == pullCount else { throw BenchError.wrongCount }
                }),
            BenchmarkCase(
                suite: "sync", name: "push-1k", peer: "RecordStore writes + HTTPClient PUTs", target: 0.8,
                ours: {
                    let edit = edits.next()
                    let current = try await replica.records.fetchAll()
                    try await replica.write { batch in
                        for var record in current {
                            record.body = "Body of \(record.id), edit \(edit), with some text."
                            batch.update(record)
                        }
                    }
                    try await engine.sync()
                    guard try await replica.pendingCount() == 0 else { throw BenchError.wrongCount }
                },
                theirs: {
                    let edit = edits.next()
                    var current = try await plain.fetchAll()
                    try await plain.write { batch in
                        for index in current.indices {
                            current[index].body = "Body of \(current[index].id), edit \(edit), with some text."
                            batch.update(current[index])
                        }
                    }
                    let encoder = JSONEncoder()
                    for record in current {
                        var sent = record
                        sent.revision = revisions.get(record.id)
                        let request = Networking.HTTPRequest(
                            method: .put, path: "sync/pushedbyhand/\(record.id)",
                            headers: [
                                "Sync-Client-ID": plainClient, "Idempotency-Key": UUID().uuidString,
                                "Sync-Base-Revision": String(sent.revision),
                            ], body: .data(try encoder.encode(sent), contentType: "application/json"))
                        let response = try await client.send(request)
                        let answer = try JSONDecoder().decode(Answer.self, from: response.body)
                        revisions.set(record.id, answer.revision)
                    }
                }),
        ]
    }

    /// Reads the feed at `path` page by page and saves each page's records into `store` in one
    /// write, as an app would without the sync client.
    static func pullByHand(
        client: Networking.HTTPClient, path: String, into store: RecordStore<Note>, saw: (Note) -> Void
    ) async throws {
        var cursor: String?
        let decoder = JSONDecoder()
        while true {
            var query = [("limit", String(pageSize))]
            if let cursor { query.append(("after", cursor)) }
            let response = try await client.send(
                Networking.HTTPRequest(method: .get, path: path + "/changes", query: query))
            let page = try decoder.decode(Page.self, from: response.body)
            let records = page.entries.compactMap(\.record)
            records.forEach(saw)
            // A plain table stores the record at its own revision count, so the copy is saved
            // as new (the server's revision is kept apart, as the peer's own bookkeeping).
            try await store.write { batch in
                for var record in records {
                    record.revision = 0
                    batch.save(record)
                }
            }
            cursor = page.next
            if !page.hasMore { return }
        }
    }

    enum BenchError: Error { case wrongCount }

    /// The peer's server revisions, per record.
    final class Revisions: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String: Int]
        init(_ values: [String: Int]) { self.values = values }
        func get(_ id: String) -> Int { lock.withLock { values[id] ?? 0 } }
        func set(_ id: String, _ revision: Int) { lock.withLock { values[id] = revision } }
    }

    /// Numbers the edits, so every unit changes every record.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int {
            lock.withLock {
                value += 1
                return value
            }
        }
    }
}
