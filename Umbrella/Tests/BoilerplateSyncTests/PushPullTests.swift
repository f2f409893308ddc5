import BoilerplateSync
import Foundation
import Networking
import Storage
import Testing

/// Changes made on one device reach the server and come back on another.
@Suite struct PushPullTests {
    @Test(arguments: ServerDatabase.allCases)
    func aRoundTripBetweenTwoDevices(_ database: ServerDatabase) async throws {
        try await withServer(database) { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                let b = try Device.open("b", in: folder, server: server, pageSize: 2)
                try await a.store.insert(Note(id: "n1", text: "milk"))
                try await a.store.insert(Note(id: "n2", text: "bread"))
                try await a.store.insert(Note(id: "n3", text: "eggs"))
                try await a.store.update(Note(id: "n1", text: "oat milk"))
                try await a.store.delete(id: "n3")
                #expect(a.engine.state.pendingCount == 5)
                try await a.engine.sync()
                #expect(a.engine.state.pendingCount == 0)
                #expect(a.engine.state.lastError == nil)
                #expect(a.engine.state.lastSyncedAt != nil)
                let onServer = try await server.notes()
                #expect(
                    onServer == [
                        "n1": Note(id: "n1", text: "oat milk", revision: 1), "n2": Note(id: "n2", text: "bread"),
                    ])
                #expect(try await a.notes() == onServer)

                try await b.engine.sync()
                #expect(try await b.notes() == onServer)
                #expect(try await b.store.cursor() != nil)

                var edited = try #require(try await b.store.records.fetch(id: "n2"))
                edited.text = "rye bread"
                try await b.store.update(edited)
                try await b.store.delete(id: "n1")
                try await b.engine.sync()
                try await a.engine.sync()
                let final = try await server.notes()
                #expect(final == ["n2": Note(id: "n2", text: "rye bread", revision: 1)])
                #expect(try await a.notes() == final)
                #expect(try await b.notes() == final)
                #expect(try await a.store.conflicts().isEmpty)
                #expect(try await b.store.conflicts().isEmpty)
            }
        }
    }

    @Test func offlineEditsAreSentWhenTheServerIsReachable() async throws {
        try await withServer { server in
            try await withFolder { folder in
                // Nothing listens on port 1: every request fails to connect.
                let store = try SyncedRecordStore<Note>(url: folder.appendingPathComponent("a.sqlite"), table: "notes")
                let offline = SyncEngine(
                    store: store, client: HTTPClient(baseURL: URL(string: "http://127.0.0.1:1/")!), path: "notes",
                    configuration: SyncEngineConfiguration(retry: Device.quickRetry))
                try await store.insert(Note(id: "t1", text: "on a train"))
                try await store.insert(Note(id: "t2", text: "still on it"))
                await #expect {
                    try await offline.sync()
                } throws: { error in
                    if case .network = error as? SyncError { true } else { false }
                }
                if case .network = offline.state.lastError {
                } else {
                    Issue.record("lastError: \(String(describing: offline.state.lastError))")
                }
                #expect(offline.state.pendingCount == 2)
                // Each record's first change had its request decided (and kept) before the first send.
                #expect(try await store.pendingChanges().map(\.sentAs) == ["POST", "POST"])

                // The network is back (the same database, an engine on the reachable server).
                let online = SyncEngine(
                    store: store, client: HTTPClient(baseURL: server.baseURL), path: "notes",
                    configuration: SyncEngineConfiguration(retry: Device.quickRetry))
                try await online.sync()
                #expect(try await server.notes().keys.sorted() == ["t1", "t2"])
                #expect(try await store.pendingCount() == 0)
            }
        }
    }

    @Test func pulledChangesReachLiveQueries() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                let b = try Device.open("b", in: folder, server: server)
                let live = try LiveQuery(b.store.records, matching: RecordQuery<Note>())
                try await a.store.insert(Note(id: "x", text: "from a"))
                try await a.engine.sync()
                try await b.engine.sync()
                let deadline = ContinuousClock.now + .seconds(30)
                while live.records.map(\.id) != ["x"], ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                #expect(live.records == [Note(id: "x", text: "from a")])
                #expect(try await b.store.pendingCount() == 0)
            }
        }
    }
}
