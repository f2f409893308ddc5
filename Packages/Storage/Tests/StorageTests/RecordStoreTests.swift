import Foundation
import Storage
import Testing

struct Note: Codable, Identifiable, Equatable, Sendable {
    var id: Int
    var title: String
    var pinned = false
}

/// The behaviour every backend shares; the SQLite tests run the same checks.
enum RecordStoreChecks {
    static func crud(_ notes: RecordStore<Note>) async throws {
        try await notes.insert(Note(id: 1, title: "Groceries"))
        try await notes.insert(Note(id: 2, title: "Call Ana", pinned: true))
        #expect(try await notes.fetch(id: 1)?.title == "Groceries")
        try await notes.update(Note(id: 1, title: "Groceries and bread"))
        #expect(try await notes.fetch(id: 1)?.title == "Groceries and bread")
        try await notes.save(Note(id: 3, title: "New via save"))
        try await notes.save(Note(id: 3, title: "Replaced via save"))
        try await notes.delete(id: 2)
        try await notes.delete(id: 99)
        #expect(try await notes.fetchAll().map(\.id) == [1, 3])
        #expect(try await notes.count() == 2)
        #expect(try await notes.fetch(id: 2) == nil)
    }

    static func errors(_ notes: RecordStore<Note>) async throws {
        try await notes.insert(Note(id: 1, title: "One"))
        let duplicate = await #expect(throws: StorageError.self) { try await notes.insert(Note(id: 1, title: "Again")) }
        guard case .duplicateRecord(let id, _) = duplicate else {
            Issue.record("expected duplicateRecord, got \(String(describing: duplicate))")
            return
        }
        #expect(id == "1")
        let missing = await #expect(throws: StorageError.self) { try await notes.update(Note(id: 5, title: "Five")) }
        guard case .recordNotFound = missing else {
            Issue.record("expected recordNotFound, got \(String(describing: missing))")
            return
        }
    }

    static func batches(_ notes: RecordStore<Note>) async throws {
        try await notes.write { batch in
            for id in 1...100 { batch.insert(Note(id: id, title: "Note \(id)", pinned: id.isMultiple(of: 10))) }
        }
        #expect(try await notes.count() == 100)
        // One failing change rolls the whole batch back.
        await #expect(throws: StorageError.self) {
            try await notes.write { batch in
                batch.delete(id: 1)
                batch.update(Note(id: 2, title: "Changed"))
                batch.insert(Note(id: 3, title: "Duplicate"))
            }
        }
        #expect(try await notes.count() == 100)
        #expect(try await notes.fetch(id: 2)?.title == "Note 2")
        // Delete then re-insert in one batch puts the record last.
        try await notes.write { batch in
            batch.delete(id: 1)
            batch.insert(Note(id: 1, title: "Back"))
        }
        #expect(try await notes.fetchAll().last == Note(id: 1, title: "Back"))
    }

    static func queries(_ notes: RecordStore<Note>) async throws {
        try await notes.write { batch in
            for id in 1...20 { batch.insert(Note(id: id, title: "Note \(id)", pinned: id.isMultiple(of: 5))) }
        }
        let pinned = try await notes.fetch(where: { $0.pinned }, sortedBy: \.id, ascending: false)
        #expect(pinned.map(\.id) == [20, 15, 10, 5])
        let firstThree = try await notes.fetch(sortedBy: { $0.title < $1.title }, limit: 3)
        #expect(firstThree.map(\.title) == ["Note 1", "Note 10", "Note 11"])
    }
}

@Suite("RecordStore in one file and in memory")
struct RecordStoreTests {
    func store(_ temporary: TemporaryFolder, _ kind: RecordBackendKind = .file) throws -> RecordStore<Note> {
        try kind.store("notes.json", in: temporary, durability: .file)
    }

    @Test("inserts, updates, saves, deletes and fetches by id", arguments: RecordBackendKind.allCases)
    func crud(_ kind: RecordBackendKind) async throws {
        let temporary = try TemporaryFolder()
        try await RecordStoreChecks.crud(try store(temporary, kind))
    }

    @Test("rejects duplicate inserts and updates of missing records", arguments: RecordBackendKind.allCases)
    func errors(_ kind: RecordBackendKind) async throws {
        let temporary = try TemporaryFolder()
        try await RecordStoreChecks.errors(try store(temporary, kind))
    }

    @Test("applies a batch as one transaction", arguments: RecordBackendKind.allCases)
    func batches(_ kind: RecordBackendKind) async throws {
        let temporary = try TemporaryFolder()
        try await RecordStoreChecks.batches(try store(temporary, kind))
    }

    @Test("filters, sorts and limits", arguments: RecordBackendKind.allCases)
    func queries(_ kind: RecordBackendKind) async throws {
        let temporary = try TemporaryFolder()
        try await RecordStoreChecks.queries(try store(temporary, kind))
    }

    @Test("keeps records in its file, visible to another store on the same file")
    func sharedFile() async throws {
        let temporary = try TemporaryFolder()
        let first = try store(temporary)
        let second = try store(temporary)
        try await first.insert(Note(id: 1, title: "From first"))
        try await second.insert(Note(id: 2, title: "From second"))
        #expect(try await first.fetchAll().map(\.id) == [1, 2])
        #expect(try temporary.store().load([Note].self, from: "notes.json").count == 2)
    }

    @Test("moves a damaged collection file aside instead of starting over on it")
    func damagedFile() async throws {
        let temporary = try TemporaryFolder()
        try temporary.write(#"[{"id": 1, "title": "trunc"#, to: "notes.json")
        let notes = try store(temporary)
        let error = await #expect(throws: StorageError.self) { try await notes.fetchAll() }
        guard case .corrupt(_, _?, _) = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(temporary.allFiles().contains { $0.hasPrefix("notes.json.corrupt-") })
    }

    @Test("survives concurrent writers: 8 tasks × 50 inserts", arguments: RecordBackendKind.allCases)
    func concurrentInserts(_ kind: RecordBackendKind) async throws {
        let temporary = try TemporaryFolder()
        let notes: RecordStore<Note> = try kind.store("notes.json", in: temporary)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<50 { try await notes.insert(Note(id: task * 1_000 + index, title: "t")) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await notes.count() == 400)
    }

    @Test(
        "gives ids canonical text",
        arguments: zip([RecordID.string(for: 42), RecordID.string(for: "abc")], ["42", "abc"]))
    func recordIDs(_ text: String, _ expected: String) {
        #expect(text == expected)
    }
}
