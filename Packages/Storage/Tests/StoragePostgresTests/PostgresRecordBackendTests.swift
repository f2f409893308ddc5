import Foundation
import Storage
import StoragePostgres
import StoragePostgresTesting
import Testing

struct Note: Codable, Identifiable, Sendable, Equatable {
    var id: Int
    var text: String
    var stars: Int
}

extension Note: QueryableRecord {
    static let queryableFields: [QueryField<Note>] = [QueryField(\.text, "text"), QueryField(\.stars, "stars")]
}

struct Ticket: Codable, Identifiable, Equatable, Sendable, RevisionedRecord {
    var id: Int
    var title: String
    var revision = 0
}

@Suite("RecordStore on PostgreSQL (a real server started by the test)", .timeLimit(.minutes(5)))
struct PostgresRecordBackendTests {
    @Test("runs the issue's snippet: filtered, sorted and counted in the database")
    func snippet() async throws {
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<Note>(url: server.url, table: "notes")
            let notes = RecordStore(backend: backend)
            try await notes.insert(Note(id: 1, text: "a", stars: 3))
            try await notes.insert(Note(id: 2, text: "b", stars: 5))
            let top = try await notes.fetch(where: \.stars >= 3, sortedBy: \.stars, ascending: false, limit: 10)
            #expect(top.map(\.id) == [2, 1])
            let many = try await notes.count(where: \.stars > 4 && \.text != "")
            #expect(many == 1)
            try await backend.shutdown()
        }
    }

    @Test("inserts, updates, saves, deletes, batches all or nothing, keeps insertion order")
    func crud() async throws {
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<Note>(url: server.url, table: "notes")
            let notes = RecordStore(backend: backend)
            try await notes.insert(Note(id: 1, text: "one", stars: 1))
            try await notes.insert(Note(id: 2, text: "two", stars: 2))
            try await notes.update(Note(id: 1, text: "one!", stars: 1))
            try await notes.save(Note(id: 3, text: "three", stars: 3))
            try await notes.save(Note(id: 3, text: "three!", stars: 3))
            try await notes.delete(id: 2)
            try await notes.delete(id: 99)
            #expect(try await notes.fetchAll().map(\.text) == ["one!", "three!"])
            #expect(try await notes.fetch(id: 3)?.text == "three!")
            #expect(try await notes.fetch(id: 2) == nil)
            #expect(try await notes.count() == 2)
            let duplicate = await #expect(throws: StorageError.self) {
                try await notes.insert(Note(id: 1, text: "", stars: 0))
            }
            guard case .duplicateRecord(let id, _) = duplicate else {
                Issue.record("expected duplicateRecord, got \(String(describing: duplicate))")
                return
            }
            #expect(id == "1")
            await #expect(throws: StorageError.self) {
                try await notes.write { batch in
                    batch.insert(Note(id: 4, text: "four", stars: 4))
                    batch.update(Note(id: 5, text: "missing", stars: 5))
                }
            }
            #expect(try await notes.fetch(id: 4) == nil)
            try await notes.write { batch in
                batch.delete(id: 1)
                batch.insert(Note(id: 1, text: "back", stars: 1))
            }
            #expect(try await notes.fetchAll().map(\.id) == [3, 1])
            // A second backend on the same table (another server instance) sees the same records.
            let other = try await PostgresRecordBackend<Note>(url: server.url, table: "notes")
            #expect(try await other.fetchAll().map(\.id) == [3, 1])
            try await other.shutdown()
            try await backend.shutdown()
        }
    }

    @Test("a stale update of a revisioned record is a typed conflict; nothing is lost")
    func staleRevision() async throws {
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<Ticket>(url: server.url, table: "tickets")
            let tickets = RecordStore(backend: backend)
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
            #expect(try await tickets.fetch(id: 1)?.title == "theirs")
            await #expect(throws: StorageError.self) { try await tickets.update(Ticket(id: 7, title: "missing")) }
            await #expect(throws: RecordStoreError.self) {
                try await tickets.write { batch in
                    batch.insert(Ticket(id: 2, title: "two"))
                    batch.update(mine)
                }
            }
            #expect(try await tickets.fetch(id: 2) == nil)
            try await backend.shutdown()
        }
    }

    @Test("observes a query through LISTEN/NOTIFY, seeing another instance's writes")
    func changes() async throws {
        try await PostgresTestServer.with { server in
            let watcherBackend = try await PostgresRecordBackend<Note>(url: server.url, table: "notes")
            let writerBackend = try await PostgresRecordBackend<Note>(url: server.url, table: "notes")
            let watcher = RecordStore(backend: watcherBackend)
            let writer = RecordStore(backend: writerBackend)
            try await writer.insert(Note(id: 1, text: "a", stars: 5))
            var results = try watcher.changes(matching: RecordQuery(where: \.stars >= 4)).makeAsyncIterator()
            #expect(try await results.next()?.map(\.id) == [1])
            try await writer.insert(Note(id: 2, text: "b", stars: 4))
            #expect(try await results.next()?.map(\.id) == [1, 2])
            try await writer.insert(Note(id: 3, text: "c", stars: 1))
            try await writer.delete(id: 1)
            #expect(try await results.next()?.map(\.id) == [2])
            try await writerBackend.shutdown()
            // The watcher's connections close: the observation ends with a typed error, not silence.
            try await watcherBackend.shutdown()
            await #expect(throws: StorageError.self) {
                while try await results.next() != nil {}
            }
        }
    }

    @Test("adds columns for newly declared fields on open and fills them from stored records")
    func migrates() async throws {
        struct PlainNote: Codable, Identifiable, Sendable { var id: Int; var text: String; var stars: Int }
        try await PostgresTestServer.with { server in
            let old = try await PostgresRecordBackend<PlainNote>(url: server.url, table: "notes")
            try await RecordStore(backend: old).insert(PlainNote(id: 1, text: "kept", stars: 4))
            try await old.shutdown()
            let new = try await PostgresRecordBackend<Note>(url: server.url, table: "notes")
            #expect(try await RecordStore(backend: new).fetch(where: \.stars == 4).map(\.text) == ["kept"])
            try await new.shutdown()
        }
    }

    @Test("a query on a key path not declared queryable is a typed error before any database work")
    func unqueryable() async throws {
        struct Loose: QueryableRecord, Equatable {
            var id: Int; var hidden: Int; static let queryableFields: [QueryField<Loose>] = []
        }
        let store = RecordStore<Loose>(backend: Unreachable())
        await #expect(throws: RecordStoreError.self) { try await store.fetch(where: \.hidden > 1) }
    }

    @Test(
        "rejects a bad URL or table name with a typed error",
        arguments: ["http://x@h/db", "postgres://h/db", "postgres://u@h/db?sslmode=odd"])
    func badURL(_ text: String) async throws {
        let url = try #require(URL(string: text))
        let error = await #expect(throws: PostgresRecordError.self) {
            _ = try await PostgresRecordBackend<Note>(url: url)
        }
        guard case .invalidURL = error else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
    }

    @Test("rejects a table name that is not an identifier")
    func badTable() async throws {
        let url = try #require(URL(string: "postgres://u@127.0.0.1:1/db"))
        await #expect(throws: PostgresRecordError.invalidTable("notes; drop")) {
            _ = try await PostgresRecordBackend<Note>(url: url, table: "notes; drop")
        }
    }

    @Test("a server that does not answer is StorageError.database naming it")
    func unreachable() async throws {
        // Port 1 on loopback: nothing listens there.
        let url = try #require(URL(string: "postgres://u@127.0.0.1:1/db?sslmode=disable"))
        let error = await #expect(throws: StorageError.self) {
            _ = try await PostgresRecordBackend<Note>(url: url, openTimeout: .seconds(2))
        }
        guard case .database(let name, _) = error else {
            Issue.record("expected database, got \(String(describing: error))")
            return
        }
        #expect(name.contains("127.0.0.1:1"))
    }
}

/// What ``Unreachable`` throws.
struct Asked: Error {}

/// A backend that fails every call: proves a query error comes before the backend is asked.
struct Unreachable<Record: Codable & Identifiable & Sendable>: RecordBackend where Record.ID: Codable & Sendable {
    func fetchAll() async throws -> [Record] { throw Asked() }
    func fetch(id: Record.ID) async throws -> Record? { throw Asked() }
    func count() async throws -> Int { throw Asked() }
    func apply(_ changes: [RecordChange<Record>]) async throws { throw Asked() }
}
