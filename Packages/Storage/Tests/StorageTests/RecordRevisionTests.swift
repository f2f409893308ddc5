import Foundation
import Storage
import Testing

struct Ticket: Codable, Identifiable, Equatable, Sendable, RevisionedRecord {
    var id: Int
    var title: String
    var revision = 0
}

/// Optimistic concurrency; the SQLite and PostgreSQL tests run the same checks.
enum RevisionChecks {
    static func staleUpdates(_ tickets: RecordStore<Ticket>) async throws {
        try await tickets.insert(Ticket(id: 1, title: "new"))
        var mine = try #require(try await tickets.fetch(id: 1))
        var theirs = mine
        theirs.title = "theirs"
        try await tickets.update(theirs)
        #expect(try await tickets.fetch(id: 1) == Ticket(id: 1, title: "theirs", revision: 1))
        mine.title = "mine"
        let error = await #expect(throws: RecordStoreError.self) { try await tickets.update(mine) }
        guard case .staleRevision(let id, let expected, let stored, _) = error else {
            Issue.record("expected staleRevision, got \(String(describing: error))")
            return
        }
        #expect(id == "1" && expected == 0 && stored == 1)
        await #expect(throws: RecordStoreError.self) { try await tickets.save(mine) }
        // Nothing was lost: the other writer's change is still there; a reload and retry succeeds.
        #expect(try await tickets.fetch(id: 1)?.title == "theirs")
        var reloaded = try #require(try await tickets.fetch(id: 1))
        reloaded.title = "mine, after reload"
        try await tickets.save(reloaded)
        #expect(try await tickets.fetch(id: 1) == Ticket(id: 1, title: "mine, after reload", revision: 2))
        // A stale change in a batch rolls the whole batch back.
        await #expect(throws: RecordStoreError.self) {
            try await tickets.write { batch in
                batch.insert(Ticket(id: 2, title: "two"))
                batch.update(mine)
            }
        }
        #expect(try await tickets.fetch(id: 2) == nil)
    }
}

@Suite("Optimistic concurrency on the file and in-memory backends")
struct RecordRevisionTests {
    @Test("a stale update or save is a typed conflict and writes nothing", arguments: RecordBackendKind.allCases)
    func staleUpdates(_ kind: RecordBackendKind) async throws {
        let temporary = try TemporaryFolder()
        try await RevisionChecks.staleUpdates(try kind.store("tickets.json", in: temporary))
    }
}
