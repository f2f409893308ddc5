import BoilerplateSync
import Foundation
import Storage
import Testing

/// Records a server refuses, and ids that are not plain words, pushed and pulled.
@Suite struct HostileRecordTests {
    @Test(arguments: ServerDatabase.allCases)
    func idsWithPathAndControlCharactersRoundTrip(_ database: ServerDatabase) async throws {
        let ids = [
            "../etc", "a/b", "with space", "line\nbreak", "%2F", "ü-ñ", "?q=1#x", String(repeating: "l", count: 300),
        ]
        try await withServer(database) { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                let b = try Device.open("b", in: folder, server: server)
                for id in ids { try await a.store.insert(Note(id: id, text: "created")) }
                try await a.engine.sync()
                #expect(try await server.notes().keys.sorted() == ids.sorted())
                for id in ids { try await a.store.update(Note(id: id, text: "edited")) }
                try await a.store.delete(id: ids[0])
                try await a.engine.sync()
                try await b.engine.sync()
                let expected = Dictionary(
                    uniqueKeysWithValues: ids.dropFirst().map { ($0, Note(id: $0, text: "edited", revision: 1)) })
                #expect(try await server.notes() == expected)
                #expect(try await b.notes() == expected)
            }
        }
    }

    @Test func aWriteTheServerRefusesStaysPendingUntilDiscarded() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                // Over the server's 1 MiB body limit: 413 bodyTooLarge, which no retry fixes.
                try await a.store.insert(Note(id: "huge", text: String(repeating: "x", count: 2 * 1024 * 1024)))
                try await a.store.insert(Note(id: "small", text: "after it"))
                await #expect {
                    try await a.engine.sync()
                } throws: { error in
                    if case .writeRejected(413, _, _) = error as? SyncError { true } else { false }
                }
                // Changes are sent in order: the one after the refused one waits too.
                #expect(try await server.notes().isEmpty)
                let pending = try await a.store.pendingChanges()
                #expect(pending.map(\.id) == ["huge", "small"])
                try await a.store.discardPendingChange(sequence: pending[0].sequence)
                try await a.engine.sync()
                #expect(try await server.notes().keys.sorted() == ["small"])
                // The refused record stays local: the app decides what to do with it.
                #expect(try await a.store.records.fetch(id: "huge") != nil)
            }
        }
    }
}
