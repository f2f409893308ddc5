import Foundation
import Storage
import Testing

@testable import BoilerplateSync

/// The default policy: the server's record wins, and every conflict is reported and logged.
@Suite struct ServerWinsConflictTests {
    @Test(arguments: ServerDatabase.allCases)
    func twoDevicesEditOneRecord(_ database: ServerDatabase) async throws {
        try await withServer(database) { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                let b = try Device.open("b", in: folder, server: server)
                try await a.store.insert(Note(id: "n", text: "base"))
                try await a.engine.sync()
                try await b.engine.sync()
                let reports = b.engine.conflictReports()
                try await a.store.update(Note(id: "n", text: "from a"))
                try await b.store.update(Note(id: "n", text: "from b"))
                try await a.engine.sync()
                try await b.engine.sync()
                let winner = Note(id: "n", text: "from a", revision: 1)
                #expect(try await server.notes() == ["n": winner])
                // Past b's own edit (revision 1), so a copy of that edit is stale locally.
                #expect(try await b.notes() == ["n": Note(id: "n", text: "from a", revision: 2)])
                #expect(b.engine.state.pendingCount == 0)
                let logged = try await b.store.conflicts()
                #expect(logged.count == 1)
                let conflict = try #require(logged.first)
                #expect(conflict.kind == .staleRevision)
                #expect(conflict.local?.text == "from b")
                #expect(conflict.server == winner)
                #expect(conflict.serverRevision == 1)
                #expect(conflict.decision == .keptServer)
                var iterator = reports.makeAsyncIterator()
                #expect(await iterator.next() == conflict)
            }
        }
    }

    @Test func anEditRacingADeleteLosesToTheDelete() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                let b = try Device.open("b", in: folder, server: server)
                try await a.store.insert(Note(id: "n", text: "base"))
                try await a.engine.sync()
                try await b.engine.sync()
                try await a.store.delete(id: "n")
                try await b.store.update(Note(id: "n", text: "edited"))
                try await a.engine.sync()
                try await b.engine.sync()
                #expect(try await server.notes().isEmpty)
                #expect(try await b.notes().isEmpty)
                let conflict = try #require(try await b.store.conflicts().first)
                #expect(conflict.kind == .recordMissing)
                #expect(conflict.local?.text == "edited")
                #expect(conflict.server == nil)
                #expect(conflict.decision == .keptServer)
            }
        }
    }

    @Test func aPulledChangeToARecordWithPendingEditsIsAConflict() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                let b = try Device.open("b", in: folder, server: server)
                try await a.store.insert(Note(id: "n", text: "base"))
                try await a.engine.sync()
                try await b.engine.sync()
                try await a.store.update(Note(id: "n", text: "from a"))
                try await a.engine.sync()
                // b edits after its push and before its pull: the pull meets the pending edit.
                try await b.store.update(Note(id: "n", text: "from b"))
                try await b.engine.pull()
                let winner = Note(id: "n", text: "from a", revision: 1)
                // Past b's own edit (revision 1), so a copy of that edit is stale locally.
                #expect(try await b.notes() == ["n": Note(id: "n", text: "from a", revision: 2)])
                #expect(try await b.store.pendingCount() == 0)
                let conflict = try #require(try await b.store.conflicts().first)
                #expect(conflict.kind == .remoteChange)
                #expect(conflict.local?.text == "from b")
                #expect(conflict.server == winner)
                #expect(conflict.decision == .keptServer)
            }
        }
    }

    @Test func aDeletionBothSidesMadeIsNoConflict() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                let b = try Device.open("b", in: folder, server: server)
                try await a.store.insert(Note(id: "n", text: "base"))
                try await a.engine.sync()
                try await b.engine.sync()
                try await a.store.delete(id: "n")
                try await a.engine.sync()
                // b deletes it too, and its pull meets a's tombstone before its push: they agree.
                try await b.store.delete(id: "n")
                try await b.engine.pull()
                #expect(try await b.store.conflicts().isEmpty)
                #expect(try await b.store.pendingCount() == 0)
                #expect(try await b.notes().isEmpty)
                try await b.engine.sync()
                #expect(try await server.notes().isEmpty)
            }
        }
    }
}
