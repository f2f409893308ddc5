import Foundation
import Storage
import Testing

@Suite("In-memory record backend")
struct InMemoryRecordBackendTests {
    @Test("errors name the in-memory collection, not a file")
    func errorLocation() async throws {
        let notes = RecordStore<Note>.inMemory(name: "notes")
        try await notes.insert(Note(id: 1, title: "One"))
        let error = await #expect(throws: StorageError.self) { try await notes.insert(Note(id: 1, title: "Again")) }
        guard case .duplicateRecord(let id, let location) = error else {
            Issue.record("expected duplicateRecord, got \(String(describing: error))")
            return
        }
        #expect(id == "1" && location == "memory:notes")
    }

    @Test("two in-memory stores never share records, even with the same name")
    func separateInstances() async throws {
        let first = RecordStore<Note>.inMemory(name: "notes")
        let second = RecordStore<Note>.inMemory(name: "notes")
        try await first.insert(Note(id: 1, title: "Only in the first"))
        #expect(try await second.count() == 0)
    }

    @Test("seeding with records keeps their order; a repeated id is a typed error")
    func seeded() async throws {
        let backend = try InMemoryRecordBackend<Note>(
            name: "seed", records: [Note(id: 2, title: "b"), Note(id: 1, title: "a")])
        #expect(try await RecordStore(backend: backend).fetchAll().map(\.id) == [2, 1])
        #expect(throws: StorageError.self) {
            try InMemoryRecordBackend<Note>(name: "seed", records: [Note(id: 1, title: "a"), Note(id: 1, title: "b")])
        }
    }

    @Test("a write to one collection does not wake the observers of another")
    func observationIsPerInstance() async throws {
        let watched = RecordStore<Card>.inMemory(name: "cards")
        let other = RecordStore<Card>.inMemory(name: "cards")
        var results = try watched.changes(matching: .all).makeAsyncIterator()
        #expect(try await results.next()?.isEmpty == true)
        try await other.insert(Card(id: 9, text: "elsewhere", stars: 1))
        try await watched.insert(Card(id: 1, text: "here", stars: 1))
        #expect(try await results.next()?.map(\.id) == [1])
    }
}
