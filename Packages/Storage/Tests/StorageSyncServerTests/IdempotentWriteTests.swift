import Foundation
import Storage
import StorageSyncServer
import Testing

@Suite("Writes with a client id and an idempotency key: a replay is answered as the first time, and applied once")
struct IdempotentWriteTests {
    @Test(
        "create, update and delete, each replayed: the same status and bytes, one change each",
        arguments: SyncDatabase.allCases)
    func replays(_ database: SyncDatabase) async throws {
        try await SyncDatabaseFixture.with(database) { fixture in
            let store = try await fixture.openStore()
            let routes = try await SyncRoutes(store: store, path: "notes")
            try await serving(routes) { http in
                let note = SyncNote(id: "n1", text: "first", revision: 7)
                let created = try await http.write(.post, "/notes", key: "k-create", note: note)
                #expect(created.status == 201)
                #expect(created.header(.location) == "/notes/n1")
                // A create starts at revision 0, whatever the body said.
                #expect(try created.json["revision"] as? Int == 0)
                #expect(try created.json["protocol"] as? Int == 1)
                #expect(created.header(SyncHeader.replayed) == nil)
                let createdAgain = try await http.write(.post, "/notes", key: "k-create", note: note)
                #expect(createdAgain.status == 201 && createdAgain.body == created.body)
                #expect(createdAgain.header(.location) == "/notes/n1")
                #expect(createdAgain.header(SyncHeader.replayed) == "true")

                let edit = SyncNote(id: "n1", text: "second")
                let updated = try await http.write(.put, "/notes/n1", key: "k-edit", base: 0, note: edit)
                #expect(updated.status == 200)
                #expect(try updated.json["revision"] as? Int == 1)
                #expect((try updated.json["record"] as? [String: Any])?["revision"] as? Int == 1)
                let updatedAgain = try await http.write(.put, "/notes/n1", key: "k-edit", base: 0, note: edit)
                #expect(updatedAgain.status == 200 && updatedAgain.body == updated.body)
                #expect(try await store.fetch(id: "n1") == SyncNote(id: "n1", text: "second", revision: 1))

                let deleted = try await http.write(.delete, "/notes/n1", key: "k-delete", base: 1)
                #expect(deleted.status == 200)
                #expect(try deleted.json["op"] as? String == "deleted")
                let deletedAgain = try await http.write(.delete, "/notes/n1", key: "k-delete", base: 1)
                #expect(deletedAgain.status == 200 && deletedAgain.body == deleted.body)
                #expect(try await store.fetch(id: "n1") == nil)

                // Each write reached the feed once: n1's one entry is its tombstone.
                let feed = try await store.changes(after: nil)
                #expect(feed.entries.map(\.id) == ["n1"] && feed.entries.first?.isDeletion == true)
                // Keys are per client: another device may use the same key for its own write.
                let other = try await http.write(
                    .post, "/notes", client: "device-b", key: "k-create", note: SyncNote(id: "n2", text: "b"))
                #expect(other.status == 201 && other.header(SyncHeader.replayed) == nil)
            }
        }
    }

    @Test("a conflict's answer is kept too: its replay is the same 409, even after the record changed again")
    func conflictReplay() async throws {
        try await SyncDatabaseFixture.with(.sqlite) { fixture in
            let store = try await fixture.openStore()
            try await store.insert(SyncNote(id: "n1", text: "v0"))
            try await store.update(SyncNote(id: "n1", text: "v1", revision: 0))
            let routes = try await SyncRoutes(store: store, path: "notes")
            try await serving(routes) { http in
                let stale = SyncNote(id: "n1", text: "offline edit")
                let conflict = try await http.write(.put, "/notes/n1", key: "k1", base: 0, note: stale)
                #expect(conflict.status == 409)
                #expect(conflict.reason == "staleRevision")
                #expect(conflict.current?["revision"] as? Int == 1)
                #expect((conflict.current?["record"] as? [String: Any])?["text"] as? String == "v1")
                try await store.update(SyncNote(id: "n1", text: "v2", revision: 1))
                let again = try await http.write(.put, "/notes/n1", key: "k1", base: 0, note: stale)
                #expect(again.status == 409 && again.body == conflict.body)
                #expect(again.header(SyncHeader.replayed) == "true")
                // Editing a record that is gone, and creating one that exists, are conflicts too.
                try await store.delete(id: "n1")
                let missing = try await http.write(.put, "/notes/n1", key: "k2", base: 2, note: stale)
                #expect(missing.status == 409 && missing.reason == "recordMissing")
                #expect(try missing.json.keys.contains("current") && missing.current == nil)
                try await store.insert(SyncNote(id: "n9", text: "taken"))
                let exists = try await http.write(.post, "/notes", key: "k3", note: SyncNote(id: "n9", text: "mine"))
                #expect(exists.status == 409 && exists.reason == "alreadyExists")
                #expect((exists.current?["record"] as? [String: Any])?["text"] as? String == "taken")
            }
        }
    }

    @Test("a key reused with a different request is 422 idempotencyKeyReused, and nothing is written")
    func keyReused() async throws {
        try await SyncDatabaseFixture.with(.sqlite) { fixture in
            let store = try await fixture.openStore()
            let routes = try await SyncRoutes(store: store, path: "notes")
            try await serving(routes) { http in
                #expect(
                    try await http.write(.post, "/notes", key: "k1", note: SyncNote(id: "n1", text: "a")).status == 201)
                let reused = try await http.write(.post, "/notes", key: "k1", note: SyncNote(id: "n2", text: "b"))
                #expect(reused.status == 422)
                #expect(reused.reason == "idempotencyKeyReused")
                #expect(try await store.fetch(id: "n2") == nil)
                // Same body, another method or record: still another request.
                let put = try await http.write(
                    .put, "/notes/n1", key: "k1", base: 0, note: SyncNote(id: "n1", text: "a"))
                #expect(put.status == 422 && put.reason == "idempotencyKeyReused")
                #expect(try await store.fetch(id: "n1")?.revision == 0)
            }
        }
    }

    @Test("receipts older than the retention are pruned; a write replayed after that is decided again")
    func receiptRetention() async throws {
        try await SyncDatabaseFixture.with(.sqlite) { fixture in
            let store = try await fixture.openStore()
            let routes = try await SyncRoutes(
                store: store, path: "notes", configuration: SyncConfiguration(receiptRetention: .seconds(3_600)))
            try await serving(routes) { http in
                #expect(
                    try await http.write(.post, "/notes", key: "k1", note: SyncNote(id: "n1", text: "a")).status == 201)
                let edit = SyncNote(id: "n1", text: "b")
                #expect(try await http.write(.put, "/notes/n1", key: "k2", base: 0, note: edit).status == 200)
                #expect(try await routes.pruneExpired(now: Date().addingTimeInterval(60)).receipts == 0)
                #expect(try await routes.pruneExpired(now: Date().addingTimeInterval(3_700)).receipts == 2)
                // Its receipt gone, the old edit meets the revision it made: a conflict, not a second apply.
                let late = try await http.write(.put, "/notes/n1", key: "k2", base: 0, note: edit)
                #expect(late.status == 409 && late.reason == "staleRevision")
                #expect(try await store.fetch(id: "n1")?.revision == 1)
            }
        }
    }
}
