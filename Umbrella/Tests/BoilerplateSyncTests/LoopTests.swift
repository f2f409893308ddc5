import Foundation
import Storage
import Testing

@testable import BoilerplateSync

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
                let loop = try #require(a.engine.stop())
                await loop.value
                // The loop has ended: a write stays pending (no timing involved).
                let requests = server.switches.requests
                try await a.store.insert(Note(id: "w2", text: "later"))
                #expect(server.switches.requests == requests)
                #expect(try await server.notes()["w2"] == nil)
                #expect(a.engine.state.pendingCount == 1)
            }
        }
    }
}
