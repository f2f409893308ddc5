import BoilerplateSync
import Foundation
import Networking
import Storage
import Testing

// The README's example (Umbrella/README.md, "Offline-first sync"), unchanged but for its
// enclosing function, which gives it the server's URL and a folder (and the namespace, which keeps
// its `Note` apart from the suite's).
private enum Readme {
    struct Note: Codable, Identifiable, Sendable, RevisionedRecord {
        var id: String
        var text: String
        var revision = 0
    }

    static func example(serverURL: URL, folder: URL) async throws -> (pending: Int, onServer: Int) {
        let notes = try SyncedRecordStore<Note>(url: folder.appendingPathComponent("notes.sqlite"), table: "notes")
        try await notes.insert(Note(id: UUID().uuidString, text: "Call Ana"))  // record + outbox entry, one transaction

        let client = HTTPClient(baseURL: serverURL)  // e.g. https://api.example.com/sync/
        let engine = SyncEngine(store: notes, client: client, path: "notes")
        try await engine.sync()  // push the outbox, then pull the server's changes
        print(engine.state.pendingCount, engine.state.lastSyncedAt as Any)  // 0, now

        let second = try SyncedRecordStore<Note>(url: folder.appendingPathComponent("phone.sqlite"), table: "notes")
        try await SyncEngine(store: second, client: client, path: "notes").sync()
        print(try await second.records.fetchAll().map(\.text))  // ["Call Ana"]
        for conflict in try await second.conflicts() { print(conflict.kind, conflict.decision) }  // none here
        return (engine.state.pendingCount, try await second.records.count())
    }
}

@Suite struct ReadmeSyncTests {
    @Test func theReadmeExampleSyncsTwoDevices() async throws {
        try await withServer(prefix: "sync") { server in
            try await withFolder { folder in
                let serverURL = try #require(URL(string: "sync/", relativeTo: server.baseURL)).absoluteURL
                let result = try await Readme.example(serverURL: serverURL, folder: folder)
                #expect(result.pending == 0)
                #expect(result.onServer == 1)
                #expect(try await server.store.count() == 1)
            }
        }
    }
}
