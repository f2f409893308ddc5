import Foundation
import Storage
import StorageSyncServer
import Testing

@Suite("Two writers racing on one record: one wins, the other gets 409 with the winner's record")
struct ConcurrentWriterTests {
    @Test("two edits on the same base revision, ten records at once", arguments: SyncDatabase.allCases)
    func twoEdits(_ database: SyncDatabase) async throws {
        try await SyncDatabaseFixture.with(database) { fixture in
            let store = try await fixture.openStore()
            let ids = (1...10).map { "n\($0)" }
            for id in ids { try await store.insert(SyncNote(id: id, text: "base")) }
            let routes = try await SyncRoutes(store: store, path: "notes")
            try await serving(routes) { http in
                let replies = try await withThrowingTaskGroup(of: (String, String, SyncHTTP.Reply).self) { group in
                    for id in ids {
                        for device in ["a", "b"] {
                            group.addTask {
                                let note = SyncNote(id: id, text: "from \(device)")
                                let reply = try await http.write(
                                    .put, "/notes/\(id)", client: "device-\(device)", key: "edit-\(id)", base: 0,
                                    note: note)
                                return (id, device, reply)
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                for id in ids {
                    let pair = replies.filter { $0.0 == id }
                    #expect(pair.map(\.2.status).sorted() == [200, 409], "\(id): \(pair.map(\.2.status))")
                    guard let winner = pair.first(where: { $0.2.status == 200 }),
                        let loser = pair.first(where: { $0.2.status == 409 })
                    else { continue }
                    #expect(loser.2.reason == "staleRevision")
                    // The loser is shown the winner's record, at the revision the winner made.
                    #expect(loser.2.current?["revision"] as? Int == 1)
                    #expect((loser.2.current?["record"] as? [String: Any])?["text"] as? String == "from \(winner.1)")
                    #expect(try await store.fetch(id: id) == SyncNote(id: id, text: "from \(winner.1)", revision: 1))
                }
            }
        }
    }

    @Test("an edit racing a delete on the same base: exactly one applies", arguments: SyncDatabase.allCases)
    func editRacingDelete(_ database: SyncDatabase) async throws {
        try await SyncDatabaseFixture.with(database) { fixture in
            let store = try await fixture.openStore()
            let ids = (1...8).map { "n\($0)" }
            for id in ids { try await store.insert(SyncNote(id: id, text: "base")) }
            let routes = try await SyncRoutes(store: store, path: "notes")
            try await serving(routes) { http in
                for id in ids {
                    async let edit = http.write(
                        .put, "/notes/\(id)", client: "device-a", key: "e-\(id)", base: 0,
                        note: SyncNote(id: id, text: "edited"))
                    async let delete = http.write(.delete, "/notes/\(id)", client: "device-b", key: "d-\(id)", base: 0)
                    let (edited, deleted) = try await (edit, delete)
                    #expect([edited.status, deleted.status].sorted() == [200, 409], "\(id)")
                    let stored = try await store.fetch(id: id)
                    if edited.status == 200 {
                        // The delete lost: it sees the edit it did not know of.
                        #expect(deleted.reason == "staleRevision" && deleted.current?["revision"] as? Int == 1)
                        #expect(stored == SyncNote(id: id, text: "edited", revision: 1))
                    } else {
                        #expect(edited.reason == "recordMissing" && edited.current == nil)
                        #expect(stored == nil)
                    }
                }
            }
        }
    }

    @Test(
        "the same write arriving twice at once is applied once; both get the first answer",
        arguments: SyncDatabase.allCases)
    func duplicateInFlight(_ database: SyncDatabase) async throws {
        try await SyncDatabaseFixture.with(database) { fixture in
            let store = try await fixture.openStore()
            let routes = try await SyncRoutes(store: store, path: "notes")
            try await serving(routes) { http in
                for round in 1...6 {
                    let note = SyncNote(id: "n\(round)", text: "once")
                    async let first = http.write(.post, "/notes", key: "same-\(round)", note: note)
                    async let second = http.write(.post, "/notes", key: "same-\(round)", note: note)
                    let (one, two) = try await (first, second)
                    #expect(one.status == 201 && two.status == 201, "round \(round): \(one.status), \(two.status)")
                    #expect(one.body == two.body)
                    #expect([one, two].filter { $0.header(SyncHeader.replayed) == "true" }.count == 1)
                }
                #expect(try await store.count() == 6)
            }
        }
    }
}
