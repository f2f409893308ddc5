import BoilerplateSync
import Foundation
import Storage
import Testing

/// The loop syncs after each local write, and stops when told.
@Suite struct LoopTests {
    @Test func aLocalWriteWakesTheLoop() async throws {
        try await withServer { server in
            try await withFolder { folder in
                // The period is an hour: only the writes can wake it.
                let a = try Device.open("a", in: folder, server: server)
                a.engine.start()
                try await waitUntil { a.engine.state.lastSyncedAt != nil }
                try await a.store.insert(Note(id: "w1", text: "one"))
                try await waitUntil { try await server.notes()["w1"] != nil }
                try await a.store.update(Note(id: "w1", text: "two"))
                try await waitUntil { try await server.notes()["w1"]?.text == "two" }
                try await waitUntil { a.engine.state.pendingCount == 0 }
                a.engine.stop()
                // Stopped: a write stays pending.
                try await Task.sleep(for: .milliseconds(100))
                try await a.store.insert(Note(id: "w2", text: "later"))
                try await Task.sleep(for: .milliseconds(300))
                #expect(try await server.notes()["w2"] == nil)
                #expect(a.engine.state.pendingCount == 1)
            }
        }
    }
}
