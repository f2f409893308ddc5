import BoilerplateSync
import Foundation
import Storage
import Testing

/// Local writes racing the loop's rounds: an answer never overwrites a newer local edit, and
/// everything written ends on the server once.
@Suite struct RacingWritesTests {
    @Test func editsDuringRoundsAreNeitherLostNorOverwritten() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                let b = try Device.open("b", in: folder, server: server)
                a.engine.start()
                defer { a.engine.stop() }
                try await a.store.insert(Note(id: "hot", text: "0"))
                // 40 edits of one record and 20 new records, written as fast as the store takes
                // them, while the loop pushes and pulls.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for step in 1...40 {
                            let current = try #require(try await a.store.records.fetch(id: "hot"))
                            try await a.store.update(Note(id: "hot", text: String(step), revision: current.revision))
                        }
                    }
                    group.addTask {
                        for index in 1...20 { try await a.store.insert(Note(id: "new\(index)", text: "n")) }
                    }
                    try await group.waitForAll()
                }
                #expect(try await a.store.records.fetch(id: "hot")?.text == "40")
                try await waitUntil { a.engine.state.pendingCount == 0 && !a.engine.state.isSyncing }
                try await a.engine.sync()
                let onServer = try await server.notes()
                #expect(onServer["hot"]?.text == "40")
                #expect(onServer.count == 21)
                #expect(try await a.notes() == onServer)
                #expect(try await a.store.conflicts().isEmpty)
                try await b.engine.sync()
                #expect(try await b.notes() == onServer)
            }
        }
    }

    @Test func twoSyncCallsAtOnceSendEachChangeOnce() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                for index in 1...20 { try await a.store.insert(Note(id: "n\(index)", text: "x")) }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await a.engine.sync() }
                    group.addTask { try await a.engine.sync() }
                    try await group.waitForAll()
                }
                // Rounds run one at a time: 20 creates, then one feed read per round.
                #expect(server.switches.requests == 22)
                #expect(try await server.notes().count == 20)
                #expect(a.engine.state.pendingCount == 0)
            }
        }
    }
}
