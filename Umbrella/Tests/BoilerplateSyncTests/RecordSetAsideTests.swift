import BoilerplateSync
import Foundation
import Storage
import Testing

/// A write whose failure concerns its own record (an answer that does not decode, a 4xx the
/// protocol does not use for writes) sets that record aside for the round: the other records are
/// sent and the feed is pulled, the record's changes stay in the outbox in order, and the round
/// ends with the failure.
@Suite struct RecordSetAsideTests {
    @Test(arguments: [
        (431, "{}", SyncError.server(status: 431, reason: nil, request: "PUT notes/b")),
        (
            404, #"{"reason":"noSuchRoute"}"#,
            SyncError.server(status: 404, reason: "noSuchRoute", request: "PUT notes/b")
        ),
    ])
    func aStatusAboutOneRecordSetsItAside(status: Int, body: String, expected: SyncError) async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                let other = try Device.open("other", in: folder, server: server)
                for id in ["a", "b", "c"] { try await a.store.insert(Note(id: id, text: "1")) }
                try await a.engine.sync()
                // Two changes of b (kept in order), changes of a and c around them, and a note
                // from another device to pull.
                try await a.store.update(
                    Note(id: "a", text: "2", revision: try #require(try await a.store.records.fetch(id: "a")).revision))
                for text in ["2", "3"] {
                    let b = try #require(try await a.store.records.fetch(id: "b"))
                    try await a.store.update(Note(id: "b", text: text, revision: b.revision))
                }
                try await a.store.update(
                    Note(id: "c", text: "2", revision: try #require(try await a.store.records.fetch(id: "c")).revision))
                try await other.store.insert(Note(id: "from-other", text: "x"))
                try await other.engine.sync()
                server.switches.answers = ["/notes/b": (status, body)]
                let writesBefore = server.switches.writes
                await #expect(throws: expected) { try await a.engine.sync() }
                #expect(a.engine.state.lastError == expected)
                // a and c went, b's first change was tried once (no second try in the same
                // round) and its second not at all; the pull ran.
                #expect(server.switches.writes == writesBefore + 3)
                let onServer = try await server.notes()
                #expect(onServer["a"]?.text == "2")
                #expect(onServer["c"]?.text == "2")
                #expect(onServer["b"]?.text == "1")
                #expect(try await a.store.records.fetch(id: "from-other") != nil)
                #expect(try await a.store.pendingChanges().map(\.id) == ["b", "b"])
                server.switches.answers = [:]
                try await a.engine.sync()
                #expect(try await server.notes()["b"]?.text == "3")
                #expect(try await a.store.pendingCount() == 0)
                #expect(a.engine.state.lastError == nil)
            }
        }
    }

    @Test func anAnswerThatDoesNotDecodeSetsTheRecordAside() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                server.switches.answers = ["/notes": (201, #"{"protocol":1,"id":"#)]
                try await a.store.insert(Note(id: "first", text: "x"))
                await #expect(throws: SyncError.self) { try await a.engine.sync() }
                guard case .corruptAnswer = a.engine.state.lastError else {
                    Issue.record("lastError is \(String(describing: a.engine.state.lastError))")
                    return
                }
                #expect(try await a.store.pendingCount() == 1)
            }
        }
    }

    @Test func aServerErrorStillStopsTheRound() async throws {
        try await withServer { server in
            try await withFolder { folder in
                let a = try Device.open("a", in: folder, server: server)
                for id in ["a", "b", "c"] { try await a.store.insert(Note(id: id, text: "1")) }
                server.switches.answers = ["/notes": (500, "{}")]
                await #expect(throws: SyncError.server(status: 500, reason: nil, request: "POST notes")) {
                    try await a.engine.sync()
                }
                // The quick policy's three tries of the first write, and no other record: a 5xx
                // is the server's state, not one record's.
                #expect(server.switches.writes == 3)
                #expect(try await a.store.pendingCount() == 3)
            }
        }
    }
}
