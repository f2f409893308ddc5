import BoilerplateSync
import Foundation
import Networking
import Storage
import StorageSQLite
import Testing

/// A local write and its outbox entry commit in one transaction: both or neither.
@Suite struct OutboxTransactionTests {
    private func open(_ folder: URL) throws -> SyncedRecordStore<Note> {
        try SyncedRecordStore<Note>(url: folder.appendingPathComponent("device.sqlite"), table: "notes")
    }

    @Test func aFailedWriteQueuesNothing() async throws {
        try await withFolder { folder in
            let store = try open(folder)
            try await store.insert(Note(id: "a", text: "first"))
            #expect(try await store.pendingCount() == 1)
            // Stale: the stored record is at revision 0, this copy claims 5.
            await #expect(throws: RecordStoreError.self) {
                try await store.update(Note(id: "a", text: "stale", revision: 5))
            }
            // A batch whose second change fails leaves neither change nor entry.
            await #expect(throws: StorageError.self) {
                try await store.write { batch in
                    batch.insert(Note(id: "b", text: "new"))
                    batch.insert(Note(id: "a", text: "duplicate"))
                }
            }
            #expect(try await store.pendingCount() == 1)
            #expect(try await store.records.fetchAll() == [Note(id: "a", text: "first")])
            #expect(try await store.pendingChanges().map(\.id) == ["a"])
        }
    }

    @Test func insertsStartAtRevisionZeroAndDeletesOfMissingRecordsQueueNothing() async throws {
        try await withFolder { folder in
            let store = try open(folder)
            try await store.insert(Note(id: "a", text: "x", revision: 7))
            #expect(try await store.records.fetch(id: "a")?.revision == 0)
            try await store.delete(id: "nothing-here")
            try await store.write { batch in
                batch.insert(Note(id: "b", text: "y"))
                batch.delete(id: "b")
            }
            let pending = try await store.pendingChanges()
            #expect(pending.map(\.id) == ["a", "b", "b"])
            #expect(pending.map(\.isDeletion) == [false, false, true])
            #expect(Set(pending.map(\.idempotencyKey)).count == 3)
            #expect(pending.allSatisfy { $0.sentAs == nil })
        }
    }

    @Test func theOutboxItsKeysAndTheClientIDSurviveAReopen() async throws {
        try await withFolder { folder in
            let before: [PendingChange]
            let client: String
            do {
                let store = try open(folder)
                try await store.insert(Note(id: "a", text: "x"))
                try await store.update(Note(id: "a", text: "y"))
                before = try await store.pendingChanges()
                client = try await store.clientID()
            }
            let reopened = try open(folder)
            #expect(try await reopened.pendingChanges() == before)
            #expect(try await reopened.clientID() == client)
            #expect(!client.isEmpty)
            #expect(try await reopened.records.fetch(id: "a")?.text == "y")
        }
    }

    @Test func adoptingSyncOnATableWithRecordsQueuesThemOnce() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let url = folder.appendingPathComponent("a.sqlite")
                let plain = try RecordStore<Note>(sqlite: url, table: "notes")
                for id in ["old1", "old2", "old3"] { try await plain.insert(Note(id: id, text: id, revision: 4)) }
                let store = try SyncedRecordStore<Note>(url: url, table: "notes")
                #expect(try await store.pendingChanges().map(\.id) == ["old1", "old2", "old3"])
                // Opening again queues nothing more.
                let again = try SyncedRecordStore<Note>(url: url, table: "notes")
                #expect(try await again.pendingCount() == 3)
                let engine = SyncEngine(
                    store: store, client: HTTPClient(baseURL: server.baseURL), path: "notes",
                    configuration: SyncEngineConfiguration(retry: Device.quickRetry))
                try await engine.sync()
                #expect(try await server.notes().keys.sorted() == ["old1", "old2", "old3"])
                // The server numbers revisions from 0; the local copies, whose content the server
                // took unchanged, keep theirs (a local revision never goes back).
                #expect(try await server.notes().values.map(\.revision) == [0, 0, 0])
                #expect(try await store.records.fetchAll().map(\.revision) == [4, 4, 4])
            }
        }
    }
}
