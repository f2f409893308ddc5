import Foundation
import Networking
import Storage
import Testing

@testable import BoilerplateSync

/// The pending count a state shows is the newest the store's transactions read, whatever order
/// the readings reach the engine in: a local write's count arriving after a later push's count
/// must not bring back changes already acknowledged.
@Suite struct PendingCountOrderTests {
    @Test func anOlderReadingArrivingLateIsIgnored() async throws {
        try await withFolder { folder in
            let store = try SyncedRecordStore<Note>(url: folder.appendingPathComponent("a.sqlite"), table: "notes")
            let engine = SyncEngine(
                store: store, client: HTTPClient(baseURL: URL(fileURLWithPath: "/")), path: "notes")
            try await engine.refresh()
            engine.show(PendingReading(count: 0, order: 1_000_001))
            engine.show(PendingReading(count: 5, order: 1_000_000))
            #expect(engine.state.pendingCount == 0)
            engine.show(PendingReading(count: 2, order: 1_000_002))
            #expect(engine.state.pendingCount == 2)
        }
    }

    @Test func readingsFollowTheStoresTransactions() async throws {
        try await withFolder { folder in
            let store = try SyncedRecordStore<Note>(url: folder.appendingPathComponent("a.sqlite"), table: "notes")
            let first = try await store.pendingReading()
            try await store.insert(Note(id: "n", text: "x"))
            let second = try await store.pendingReading()
            #expect(first.count == 0)
            #expect(second.count == 1)
            // The insert's own transaction read one in between.
            #expect(second.order >= first.order + 2)
        }
    }

    @Test func racingWritesAndRoundsEndShowingTheTrueCount() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                a.engine.start()
                defer { a.engine.stop() }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for writer in 0..<4 {
                        group.addTask {
                            for index in 0..<15 { try await a.store.insert(Note(id: "w\(writer)-\(index)", text: "x")) }
                        }
                    }
                    try await group.waitForAll()
                }
                try await waitUntil { try await a.store.pendingCount() == 0 && !a.engine.state.isSyncing }
                // No sync() call here: what the loop left shown must already be true.
                #expect(a.engine.state.pendingCount == 0)
                #expect(try await server.notes().count == 60)
            }
        }
    }
}
