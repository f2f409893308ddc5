import Foundation
import Storage
import StorageSyncServer
import Testing

@testable import BoilerplateSync

/// A write the server's rules refuse (422 `recordRefused`) is reported with its record and
/// dropped from the outbox, the local copy goes back to the server's, and sync goes on with the
/// other records and the pull (SyncProtocolV1, "Rules of the server").
@Suite struct RecordRefusalTests {
    @Test(arguments: ServerDatabase.allCases)
    func aRefusedCreateIsReportedAndDoesNotStopTheRest(_ database: ServerDatabase) async throws {
        try await withServer(database, validate: refuseBlankText) { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                let b = try Device.open("b", in: folder, server: server)
                try await b.store.insert(Note(id: "from-b", text: "b's"))
                try await b.engine.sync()
                let reports = a.engine.refusalReports()
                try await a.store.insert(Note(id: "blank", text: "  "))
                try await a.store.insert(Note(id: "after", text: "sent anyway"))
                // No error: the refusal is the server's final answer to that write, not a failure.
                try await a.engine.sync()
                #expect(try await server.notes().keys.sorted() == ["after", "from-b"])
                // The pull ran: b's note arrived.
                #expect(try await a.notes().keys.sorted() == ["after", "from-b"])
                #expect(try await a.store.pendingCount() == 0)
                #expect(a.engine.state.lastError == nil)
                let logged = try await a.store.refusals()
                #expect(logged.count == 1)
                let refusal = try #require(logged.first)
                #expect(refusal.id == "blank")
                #expect(refusal.record?.text == "  ")
                #expect(refusal.isDeletion == false)
                #expect(refusal.status == 422)
                #expect(refusal.reason == "recordRefused")
                #expect(refusal.detail == "The field 'text' must not be blank.")
                #expect(refusal.field == "text")
                // Never created on the server: nothing to go back to, so it is removed locally.
                #expect(refusal.outcome == .removedLocally)
                var iterator = reports.makeAsyncIterator()
                #expect(await iterator.next() == refusal)
                // Not sent again.
                let before = server.switches.requests
                try await a.engine.sync()
                #expect(server.switches.requests == before + 1)
            }
        }
    }

    @Test func aRefusedUpdateRestoresTheServersCopy() async throws {
        try await withServer(validate: refuseBlankText) { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                try await a.store.insert(Note(id: "n", text: "good"))
                try await a.engine.sync()
                try await a.store.update(Note(id: "n", text: ""))
                let blank = try #require(try await a.store.records.fetch(id: "n"))
                try await a.engine.sync()
                #expect(try await server.notes() == ["n": Note(id: "n", text: "good", revision: 0)])
                let restored = try #require(try await a.store.records.fetch(id: "n"))
                #expect(restored.text == "good")
                // Past the refused edit's revision: the editor's blank copy is stale now.
                #expect(restored.revision > blank.revision)
                let refusal = try #require(try await a.store.refusals().first)
                #expect(refusal.outcome == .restoredServerCopy)
                #expect(refusal.record?.text == "")
                // A corrected record is a new write on the current revision, and it goes through.
                try await a.store.update(Note(id: "n", text: "better", revision: restored.revision))
                try await a.engine.sync()
                #expect(try await server.notes() == ["n": Note(id: "n", text: "better", revision: 1)])
                #expect(try await a.store.refusals().count == 1)
            }
        }
    }

    @Test func aRefusedDeletionBringsTheRecordBack() async throws {
        try await withServer(validate: { write in
            if write.operation == .delete { throw SyncWriteRefused("Notes may not be deleted.") }
        }) { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                try await a.store.insert(Note(id: "n", text: "kept"))
                try await a.engine.sync()
                try await a.store.delete(id: "n")
                try await a.engine.sync()
                #expect(try await a.notes()["n"]?.text == "kept")
                let refusal = try #require(try await a.store.refusals().first)
                #expect(refusal.isDeletion)
                #expect(refusal.record == nil)
                #expect(refusal.field == nil)
                #expect(refusal.outcome == .restoredServerCopy)
            }
        }
    }

    @Test func aLaterEditOfARefusedRecordIsStillSent() async throws {
        try await withServer(validate: refuseBlankText) { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                try await a.store.insert(Note(id: "n", text: " "))
                try await a.store.update(Note(id: "n", text: "fixed"))
                try await a.engine.sync()
                #expect(try await server.notes() == ["n": Note(id: "n", text: "fixed", revision: 0)])
                #expect(try await a.notes()["n"]?.text == "fixed")
                let refusal = try #require(try await a.store.refusals().first)
                #expect(refusal.outcome == .keptLaterChanges)
                try await a.store.clearRefusals()
                #expect(try await a.store.refusals().isEmpty)
            }
        }
    }
}
