import Foundation
import Storage
import Testing

@testable import BoilerplateSync

/// A cursor older than the server's log (410) starts a full re-fetch that keeps pending changes.
@Suite struct RefetchTests {
    @Test(arguments: ServerDatabase.allCases)
    func anExpiredCursorRefetchesEverythingAndKeepsTheOutbox(_ database: ServerDatabase) async throws {
        try await withServer(database) { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                let b = try Device.open("b", in: folder, server: server)
                for id in ["x", "y", "z"] { try await a.store.insert(Note(id: id, text: id)) }
                try await a.engine.sync()
                try await b.engine.sync()
                let oldCursor = try await b.store.cursor()
                try await a.store.delete(id: "y")
                try await a.store.insert(Note(id: "w", text: "w"))
                try await a.engine.sync()
                // The server drops the tombstone of y: b's cursor is now older than its log.
                let pruned = try await server.routes.pruneExpired(now: Date().addingTimeInterval(40 * 86_400))
                #expect(pruned.tombstones == 1)
                // b edits x offline; the pull (alone, before any push) must keep that edit.
                try await b.store.update(Note(id: "x", text: "x from b"))
                try await b.engine.pull()
                #expect(b.engine.state.refetch == .none)
                #expect(try await b.store.cursor() != oldCursor)
                let notes = try await b.notes()
                #expect(notes.keys.sorted() == ["w", "x", "z"])
                #expect(notes["x"]?.text == "x from b")
                #expect(try await b.store.pendingChanges().map(\.id) == ["x"])
                #expect(try await b.store.conflicts().isEmpty)
                try await b.engine.sync()
                #expect(try await server.notes()["x"] == Note(id: "x", text: "x from b", revision: 1))
            }
        }
    }

    @Test func refetchAllReplacesTheLocalCopy() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                try await a.store.insert(Note(id: "x", text: "x"))
                try await a.engine.sync()
                // A record the server never had, written around the outbox (as a restored backup
                // might hold): a re-fetch removes it.
                try await a.store.backend.apply([.insert(Note(id: "ghost", text: "?"))])
                try await a.engine.refetchAll()
                #expect(a.engine.state.refetch == .needed)
                try await a.engine.sync()
                #expect(a.engine.state.refetch == .none)
                #expect(try await a.notes().keys.sorted() == ["x"])
            }
        }
    }
}
