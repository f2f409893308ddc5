import Foundation
import Storage
import StoragePostgres
import StoragePostgresTesting
import StorageSQLite
import Testing

/// Runs `body` with a feed table's backend on SQLite, then on PostgreSQL.
private func onBothDatabases(_ body: (any ReceiptRecordBackend<Ticket>) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("WriteReceipt-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let sqlite = try SQLiteRecordBackend<Ticket>(
        url: folder.appendingPathComponent("tickets.sqlite"), table: "tickets", changeFeed: true)
    try await sqlite.prepareReceipts()
    try await body(sqlite)
    try await PostgresTestServer.with { server in
        let postgres = try await PostgresRecordBackend<Ticket>(url: server.url, table: "tickets", changeFeed: true)
        try await postgres.prepareReceipts()
        do {
            try await body(postgres)
        } catch {
            try await postgres.shutdown()
            throw error
        }
        try await postgres.shutdown()
    }
}

private func receipt(_ key: String, _ text: String = "answer") -> WriteReceipt {
    WriteReceipt(client: "device", key: key, fingerprint: "f-\(key)", response: Data(text.utf8))
}

@Suite("A write's receipt commits with its changes, or not at all", .timeLimit(.minutes(5)))
struct WriteReceiptTests {
    @Test("a committed write keeps its receipt; the key taken again applies nothing")
    func keyTaken() async throws {
        try await onBothDatabases { backend in
            try await backend.apply([.insert(Ticket(id: 1, title: "one"))], requiring: [:], receipt: receipt("k1"))
            #expect(try await backend.receipt(client: "device", key: "k1") == receipt("k1"))
            #expect(try await backend.receipt(client: "other", key: "k1") == nil)
            await #expect(throws: WriteReceiptTaken(client: "device", key: "k1")) {
                try await backend.apply(
                    [.insert(Ticket(id: 2, title: "two"))], requiring: [:], receipt: receipt("k1", "x"))
            }
            #expect(try await backend.fetch(id: 2) == nil)
            #expect(try await backend.receipt(client: "device", key: "k1")?.response == Data("answer".utf8))
            let feed = try await backend.changes(after: nil, limit: 10)
            #expect(feed.entries.map(\.id) == ["1"])
        }
    }

    @Test("a failed batch, a stale or a missing required revision leaves neither change nor receipt")
    func failuresStoreNothing() async throws {
        try await onBothDatabases { backend in
            try await backend.apply([.insert(Ticket(id: 1, title: "one"))])
            try await backend.apply([.update(Ticket(id: 1, title: "edited", revision: 0))])
            await #expect(throws: StorageError.self) {
                try await backend.apply(
                    [.insert(Ticket(id: 2, title: "two")), .insert(Ticket(id: 1, title: "again"))], requiring: [:],
                    receipt: receipt("dup"))
            }
            let stale = await #expect(throws: RecordStoreError.self) {
                try await backend.apply([.delete(1)], requiring: ["1": 0], receipt: receipt("stale"))
            }
            guard case .staleRevision(_, 0, 1, _)? = stale else {
                Issue.record("expected staleRevision 0 vs 1, got \(String(describing: stale))")
                return
            }
            await #expect(throws: StorageError.self) {
                try await backend.apply([.delete(9)], requiring: ["9": 0], receipt: receipt("missing"))
            }
            for key in ["dup", "stale", "missing"] {
                #expect(try await backend.receipt(client: "device", key: key) == nil)
            }
            #expect(try await backend.fetch(id: 1) == Ticket(id: 1, title: "edited", revision: 1))
            #expect(try await backend.fetch(id: 2) == nil)
            // The required revision met, the conditional delete applies with its receipt.
            try await backend.apply([.delete(1)], requiring: ["1": 1], receipt: receipt("ok"))
            #expect(try await backend.fetch(id: 1) == nil)
            #expect(try await backend.receipt(client: "device", key: "ok") != nil)
            // An empty batch stores a receipt alone.
            try await backend.apply([], requiring: [:], receipt: receipt("alone"))
            #expect(try await backend.receipt(client: "device", key: "alone") != nil)
            #expect(try await backend.pruneReceipts(storedBefore: Date().addingTimeInterval(-60)) == 0)
            #expect(try await backend.pruneReceipts(storedBefore: Date().addingTimeInterval(60)) == 2)
            #expect(try await backend.receipt(client: "device", key: "ok") == nil)
        }
    }
}
