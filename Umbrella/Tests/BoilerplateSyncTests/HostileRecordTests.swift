import BoilerplateSync
import Foundation
import Storage
import Testing

/// Records a server refuses, and ids that are not plain words, pushed and pulled.
@Suite struct HostileRecordTests {
    @Test(arguments: ServerDatabase.allCases)
    func idsWithPathAndControlCharactersRoundTrip(_ database: ServerDatabase) async throws {
        let ids = [
            // "." and ".." are dot segments a URL resolves away unless escaped.
            ".", "..", "...", "../etc", "a/b", "with space", "line\nbreak", "%2F", "ü-ñ", "?q=1#x",
            String(repeating: "l", count: 300),
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

    @Test func aRecordOverTheServersSizeLimitIsRefusedAndTheRestIsSent() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                let reports = a.engine.refusalReports()
                // Over the server's 1 MiB body limit: 413 bodyTooLarge, which no retry fixes.
                try await a.store.insert(Note(id: "huge", text: String(repeating: "x", count: 2 * 1024 * 1024)))
                try await a.store.insert(Note(id: "small", text: "after it"))
                try await a.engine.sync()
                // Not head-of-line blocking: the change after the refused one is sent.
                #expect(try await server.notes().keys.sorted() == ["small"])
                #expect(try await a.store.pendingCount() == 0)
                var iterator = reports.makeAsyncIterator()
                let refusal = try #require(await iterator.next())
                #expect(refusal.id == "huge")
                #expect(refusal.status == 413)
                #expect(refusal.reason == "bodyTooLarge")
                #expect(refusal.record?.text.count == 2 * 1024 * 1024)
                #expect(refusal.outcome == .removedLocally)
                #expect(try await a.store.records.fetch(id: "huge") == nil)
                #expect(try await a.store.refusals().map(\.id) == ["huge"])
            }
        }
    }
}
