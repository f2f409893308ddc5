import Foundation
import Storage
import StorageSyncServer
import Testing

@Suite("The app's rules and events on sync writes: validate refuses with 422, didApply sees each committed write once")
struct SyncWriteHookTests {
    /// The rules of these tests: a note's text must not be blank, and a note reading "locked"
    /// may not be deleted.
    static func rules(_ write: SyncWrite<SyncNote>) throws {
        if let note = write.record, note.text.allSatisfy(\.isWhitespace) {
            throw SyncWriteRefused("The field 'text' must not be blank.", field: "text")
        }
        if write.operation == .delete, write.previous?.text == "locked" {
            throw SyncWriteRefused("A locked note cannot be deleted.")
        }
    }

    @Test(
        "a write the rules refuse is 422 recordRefused: nothing written, no feed entry, and its replay is the same 422",
        arguments: SyncDatabase.allCases)
    func refused(_ database: SyncDatabase) async throws {
        try await SyncDatabaseFixture.with(database) { fixture in
            let store = try await fixture.openStore()
            let seen = Seen()
            let routes = try await SyncRoutes(
                store: store, path: "notes",
                validate: { write in
                    seen.validated(write)
                    try Self.rules(write)
                },
                didApply: { seen.applied($0) })
            try await serving(routes) { http in
                let blank = SyncNote(id: "n1", text: " \n ")
                let refused = try await http.write(.post, "/notes", key: "k1", note: blank)
                #expect(refused.status == 422)
                #expect(refused.header(.contentType) == "application/problem+json")
                #expect(refused.reason == "recordRefused")
                #expect(try refused.json["field"] as? String == "text")
                #expect(try refused.json["detail"] as? String == "The field 'text' must not be blank.")
                #expect(try await store.fetch(id: "n1") == nil)
                #expect(try await store.changes(after: nil).entries.isEmpty)

                // The refusal is the write's receipt: a retry gets it again, without asking the rules.
                let again = try await http.write(.post, "/notes", key: "k1", note: blank)
                #expect(again.status == 422 && again.body == refused.body)
                #expect(again.header(SyncHeader.replayed) == "true")
                #expect(seen.validations.count == 1)
                // A corrected record is a new write, with a new key.
                let reused = try await http.write(.post, "/notes", key: "k1", note: SyncNote(id: "n1", text: "ok"))
                #expect(reused.status == 422 && reused.reason == "idempotencyKeyReused")

                try await store.insert(SyncNote(id: "n2", text: "locked"))
                let cursor = try await store.changes(after: nil).next
                let blanked = try await http.write(
                    .put, "/notes/n2", key: "k2", base: 0, note: SyncNote(id: "n2", text: ""))
                #expect(blanked.status == 422 && blanked.reason == "recordRefused")
                let deleted = try await http.write(.delete, "/notes/n2", key: "k3", base: 0)
                #expect(deleted.status == 422 && deleted.reason == "recordRefused")
                #expect(try deleted.json["field"] == nil)
                #expect(try await store.fetch(id: "n2") == SyncNote(id: "n2", text: "locked", revision: 0))
                #expect(try await store.changes(after: cursor).entries.isEmpty)
                // The rules saw the record the delete would remove.
                #expect(seen.validations.last?.previous == SyncNote(id: "n2", text: "locked"))
                #expect(seen.applications.isEmpty)
            }
        }
    }

    @Test(
        "didApply is called once per committed write with what changed; never for a conflict, a refusal or a replay",
        arguments: SyncDatabase.allCases)
    func observed(_ database: SyncDatabase) async throws {
        try await SyncDatabaseFixture.with(database) { fixture in
            let store = try await fixture.openStore()
            let seen = Seen()
            let routes = try await SyncRoutes(
                store: store, path: "notes",
                validate: { write in
                    seen.validated(write)
                    try Self.rules(write)
                },
                didApply: { seen.applied($0) })
            try await serving(routes) { http in
                let note = SyncNote(id: "n1", text: "first")
                #expect(try await http.write(.post, "/notes", key: "c", note: note).status == 201)
                #expect(try await http.write(.post, "/notes", key: "c", note: note).status == 201)
                let edit = SyncNote(id: "n1", text: "second")
                #expect(try await http.write(.put, "/notes/n1", key: "e", base: 0, note: edit).status == 200)
                // Another device's edit on revision 0 conflicts: answered 409 before the rules run.
                let stale = try await http.write(
                    .put, "/notes/n1", client: "device-b", key: "e", base: 0, note: SyncNote(id: "n1", text: "b"))
                #expect(stale.status == 409 && stale.reason == "staleRevision")
                let refused = try await http.write(
                    .put, "/notes/n1", key: "blank", base: 1, note: SyncNote(id: "n1", text: ""))
                #expect(refused.status == 422)
                let missing = try await http.write(.delete, "/notes/n9", key: "m", base: 0)
                #expect(missing.status == 409 && missing.reason == "recordMissing")
                #expect(try await http.write(.delete, "/notes/n1", key: "d", base: 1).status == 200)
                #expect(try await http.write(.delete, "/notes/n1", key: "d", base: 1).status == 200)

                let applied = seen.applications
                #expect(applied.map(\.operation) == [.create, .update, .delete])
                #expect(applied.map(\.id) == ["n1", "n1", "n1"])
                #expect(applied.map(\.clientID) == ["device-a", "device-a", "device-a"])
                #expect(applied.map(\.record) == [note, SyncNote(id: "n1", text: "second", revision: 1), nil])
                #expect(applied.map(\.previous) == [nil, note, SyncNote(id: "n1", text: "second", revision: 1)])
                // The rules were asked about the three writes that applied and the blank one only.
                #expect(seen.validations.map(\.operation) == [.create, .update, .update, .delete])
            }
        }
    }

    @Test(
        "racing writes with hooks: two devices on one base, and one write sent twice at once, each observed once",
        arguments: SyncDatabase.allCases)
    func racing(_ database: SyncDatabase) async throws {
        try await SyncDatabaseFixture.with(database) { fixture in
            let store = try await fixture.openStore()
            let ids = (1...6).map { "n\($0)" }
            for id in ids { try await store.insert(SyncNote(id: id, text: "base")) }
            let seen = Seen()
            let routes = try await SyncRoutes(
                store: store, path: "notes", validate: { try Self.rules($0) }, didApply: { seen.applied($0) })
            try await serving(routes) { http in
                for id in ids {
                    async let a = http.write(
                        .put, "/notes/\(id)", client: "device-a", key: "e-\(id)", base: 0,
                        note: SyncNote(id: id, text: "a"))
                    async let b = http.write(
                        .put, "/notes/\(id)", client: "device-b", key: "e-\(id)", base: 0,
                        note: SyncNote(id: id, text: "b"))
                    let (first, second) = try await (a, b)
                    #expect([first.status, second.status].sorted() == [200, 409], "\(id)")
                    let twin = SyncNote(id: "t-\(id)", text: "twin")
                    async let c = http.write(.post, "/notes", key: "t-\(id)", note: twin)
                    async let d = http.write(.post, "/notes", key: "t-\(id)", note: twin)
                    let (one, other) = try await (c, d)
                    #expect(one.status == 201 && other.status == 201 && one.body == other.body, "\(id)")
                }
                let applied = seen.applications
                #expect(applied.filter { $0.operation == .update }.map(\.id).sorted() == ids)
                #expect(applied.filter { $0.operation == .create }.map(\.id).sorted() == ids.map { "t-\($0)" })
                // Each applied update was made on the record the rules saw at its base revision.
                #expect(applied.allSatisfy { $0.operation == .create || $0.previous?.revision == 0 })
            }
        }
    }

    @Test("a validator that fails otherwise is a 500 with no receipt; a didApply that throws changes no answer")
    func throwingHooks() async throws {
        try await SyncDatabaseFixture.with(.sqlite) { fixture in
            let store = try await fixture.openStore()
            let seen = Seen()
            let routes = try await SyncRoutes(
                store: store, path: "notes",
                validate: { write in
                    seen.validated(write)
                    if seen.validations.count == 1 { throw CocoaError(.fileReadUnknown) }
                },
                didApply: { write in
                    seen.applied(write)
                    throw CocoaError(.fileWriteUnknown)
                })
            try await serving(routes) { http in
                let note = SyncNote(id: "n1", text: "first")
                let failed = try await http.write(.post, "/notes", key: "k1", note: note)
                #expect(failed.status == 500 && failed.reason == "serverError")
                #expect(try await store.fetch(id: "n1") == nil)
                #expect(try await store.changes(after: nil).entries.isEmpty)
                // No receipt was kept: the retry is decided again, and applies.
                let retried = try await http.write(.post, "/notes", key: "k1", note: note)
                #expect(retried.status == 201 && retried.header(SyncHeader.replayed) == nil)
                #expect(try await store.fetch(id: "n1") == note)
                #expect(seen.applications.count == 1)
                // didApply threw after the commit: the answer and the receipt stand.
                let replayed = try await http.write(.post, "/notes", key: "k1", note: note)
                #expect(replayed.status == 201 && replayed.body == retried.body)
                #expect(replayed.header(SyncHeader.replayed) == "true")
                #expect(try await store.changes(after: nil).entries.map(\.id) == ["n1"])
                #expect(seen.applications.count == 1)
            }
        }
    }
}

/// The writes the hooks saw; `values` is only touched while `lock` is held.
final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var checked: [SyncWrite<SyncNote>] = []
    private var observed: [SyncWrite<SyncNote>] = []

    func validated(_ write: SyncWrite<SyncNote>) { lock.withLock { checked.append(write) } }
    func applied(_ write: SyncWrite<SyncNote>) { lock.withLock { observed.append(write) } }
    var validations: [SyncWrite<SyncNote>] { lock.withLock { checked } }
    var applications: [SyncWrite<SyncNote>] { lock.withLock { observed } }
}
