import BoilerplateSync
import Foundation
import Storage
import Testing

/// A push applies the server's answers a batch at a time: a later change of a record still goes
/// out on the revision its earlier change was given, and answers already received survive a
/// round that fails before the batch ends.
@Suite struct AcknowledgementBatchTests {
    @Test func aLaterChangeOfARecordGoesOutOnTheRevisionTheEarlierAnswerGave() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                try await a.store.insert(Note(id: "n", text: "1"))
                for other in 1...5 { try await a.store.insert(Note(id: "o\(other)", text: "x")) }
                for step in 2...4 {
                    let current = try #require(try await a.store.records.fetch(id: "n"))
                    try await a.store.update(Note(id: "n", text: String(step), revision: current.revision))
                    try await a.store.insert(Note(id: "p\(step)", text: "x"))
                }
                try await a.engine.sync()
                let onServer = try await server.notes()
                #expect(onServer["n"]?.text == "4")
                // One create and three updates of n, each on the revision the one before it was
                // given: every change went out once, and none met a conflict.
                #expect(server.switches.writes == 12)
                #expect(try await a.store.conflicts().isEmpty)
                #expect(onServer.count == 9)
                #expect(try await a.notes() == onServer)
                #expect(a.engine.state.pendingCount == 0)
            }
        }
    }

    @Test func answersReceivedBeforeAFailureAreKept() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                for index in 1...5 { try await a.store.insert(Note(id: "n\(index)", text: "x")) }
                server.switches.writesBeforeFailing = 3
                await #expect(throws: SyncError.self) { try await a.engine.sync() }
                // The three answered writes left the outbox though the round failed.
                #expect(try await a.store.pendingCount() == 2)
                #expect(a.engine.state.pendingCount == 2)
                #expect(try await a.store.pendingChanges().map(\.id) == ["n4", "n5"])
                server.switches.writesBeforeFailing = nil
                let writesBefore = server.switches.writes
                try await a.engine.sync()
                // Only the two waiting changes were sent again, not the acknowledged ones.
                #expect(server.switches.writes == writesBefore + 2)
                #expect(try await server.notes().count == 5)
                #expect(try await a.store.pendingCount() == 0)
            }
        }
    }
}
