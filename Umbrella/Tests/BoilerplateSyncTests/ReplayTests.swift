import BoilerplateSync
import Foundation
import Networking
import Storage
import Testing

/// A write whose answer was lost is sent again under the same key and applied once.
@Suite struct ReplayTests {
    @Test(arguments: ServerDatabase.allCases)
    func aRetriedWriteIsAppliedOnce(_ database: ServerDatabase) async throws {
        try await withServer(database) { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                try await a.store.insert(Note(id: "r", text: "v0"))
                try await a.engine.sync()
                try await a.store.update(Note(id: "r", text: "v1"))
                // The update commits on the server, but its answer is lost (503): the retry
                // policy sends it again with the same key and gets the first answer back.
                server.switches.dropAnswers = 1
                try await a.engine.sync()
                #expect(server.switches.dropAnswers == 0)
                #expect(try await server.notes() == ["r": Note(id: "r", text: "v1", revision: 1)])
                #expect(try await a.notes() == ["r": Note(id: "r", text: "v1", revision: 1)])
                let feed = try await server.store.changes(after: nil, limit: 100)
                #expect(feed.entries.count == 1)
            }
        }
    }

    @Test func aWriteWhoseAnswerWasLostBeforeARestartIsAppliedOnce() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let first = try Device.open("a", in: folder, server: server, retry: .never)
                try await first.store.insert(Note(id: "r", text: "v0"))
                try await first.engine.sync()
                try await first.store.update(Note(id: "r", text: "v1"))
                server.switches.dropAnswers = 1
                await #expect(throws: SyncError.self) { try await first.engine.sync() }
                let sent = try #require(try await first.store.pendingChanges().first)
                #expect(sent.sentAs == "PUT")
                #expect(sent.baseRevision == 0)
                #expect(try await server.notes()["r"]?.revision == 1)

                // The app restarts: a new store and engine on the same file send the same request.
                let restarted = try Device.open("a", in: folder, server: server)
                #expect(try await restarted.store.pendingChanges() == [sent])
                try await restarted.engine.sync()
                #expect(try await server.notes() == ["r": Note(id: "r", text: "v1", revision: 1)])
                #expect(try await restarted.notes() == ["r": Note(id: "r", text: "v1", revision: 1)])
                #expect(try await restarted.store.conflicts().isEmpty)
                #expect(try await restarted.store.pendingCount() == 0)
            }
        }
    }

    @Test func aRetryAfterTheReceiptExpiredIsRecognisedAsItsOwnWrite() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server, retry: .never)
                try await a.store.insert(Note(id: "r", text: "v0"))
                try await a.store.insert(Note(id: "gone", text: "x"))
                try await a.engine.sync()
                // A delete and then an update each commit, lose their answer, and outlive their
                // receipt (the server keeps receipts 7 days): the retry meets the server's state
                // as a 409, which is exactly what the write asked for.
                try await a.store.delete(id: "gone")
                server.switches.dropAnswers = 1
                await #expect(throws: SyncError.self) { try await a.engine.sync() }
                #expect(try await server.routes.pruneExpired(now: Date().addingTimeInterval(8 * 86_400)).receipts >= 1)
                try await a.engine.sync()
                #expect(try await server.notes().keys.sorted() == ["r"])

                try await a.store.update(Note(id: "r", text: "v1"))
                server.switches.dropAnswers = 1
                await #expect(throws: SyncError.self) { try await a.engine.sync() }
                #expect(try await server.routes.pruneExpired(now: Date().addingTimeInterval(8 * 86_400)).receipts >= 1)
                try await a.engine.sync()
                #expect(try await server.notes() == ["r": Note(id: "r", text: "v1", revision: 1)])
                #expect(try await a.notes() == ["r": Note(id: "r", text: "v1", revision: 1)])
                #expect(try await a.store.pendingCount() == 0)
                #expect(try await a.store.conflicts().isEmpty)
            }
        }
    }
}
