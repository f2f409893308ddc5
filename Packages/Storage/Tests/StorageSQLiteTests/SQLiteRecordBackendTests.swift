import Foundation
import GRDB
import Storage
import StorageSQLite
import Testing

struct Note: Codable, Identifiable, Equatable, Sendable {
    var id: Int
    var title: String
    var pinned = false
}

/// A temporary folder per test with a real SQLite file in it.
final class TemporaryDatabase: Sendable {
    let folder: URL
    var url: URL { folder.appendingPathComponent("notes.sqlite") }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "StorageSQLiteTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func store(table: String = "notes") throws -> RecordStore<Note> {
        try RecordStore<Note>(sqlite: url, table: table)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}

@Suite("RecordStore on SQLite")
struct SQLiteRecordBackendTests {
    @Test("inserts, updates, saves, deletes and fetches by id")
    func crud() async throws {
        let database = try TemporaryDatabase()
        let notes = try database.store()
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
        #expect(try await notes.fetch(id: 3)?.title == "Replaced via save")
        #expect(try await notes.count() == 2)
    }

    @Test("rejects duplicate inserts and updates of missing records with typed errors")
    func errors() async throws {
        let database = try TemporaryDatabase()
        let notes = try database.store()
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

    @Test("applies a batch as one SQLite transaction")
    func batches() async throws {
        let database = try TemporaryDatabase()
        let notes = try database.store()
        try await notes.write { batch in
            for id in 1...100 { batch.insert(Note(id: id, title: "Note \(id)")) }
        }
        await #expect(throws: StorageError.self) {
            try await notes.write { batch in
                batch.delete(id: 1)
                batch.update(Note(id: 2, title: "Changed"))
                batch.insert(Note(id: 3, title: "Duplicate"))
            }
        }
        #expect(try await notes.count() == 100)
        #expect(try await notes.fetch(id: 2)?.title == "Note 2")
    }

    @Test("filters, sorts and limits like the file backend")
    func queries() async throws {
        let database = try TemporaryDatabase()
        let notes = try database.store()
        try await notes.write { batch in
            for id in 1...20 { batch.insert(Note(id: id, title: "Note \(id)", pinned: id.isMultiple(of: 5))) }
        }
        let pinned = try await notes.fetch(where: { $0.pinned }, sortedBy: \.id, ascending: false)
        #expect(pinned.map(\.id) == [20, 15, 10, 5])
        let firstThree = try await notes.fetch(sortedBy: { $0.title < $1.title }, limit: 3)
        #expect(firstThree.map(\.title) == ["Note 1", "Note 10", "Note 11"])
    }

    @Test("keeps collections in separate tables of one real database file")
    func tables() async throws {
        let database = try TemporaryDatabase()
        try await database.store(table: "a").insert(Note(id: 1, title: "in a"))
        try await database.store(table: "b \"quoted\"").insert(Note(id: 1, title: "in b"))
        #expect(try await database.store(table: "a").fetch(id: 1)?.title == "in a")
        #expect(try await database.store(table: "b \"quoted\"").fetch(id: 1)?.title == "in b")
        let rows = try await DatabaseQueue(path: database.url.path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM a")
        }
        #expect(rows == 1)
    }

    @Test("survives concurrent writers from two connections: 8 tasks × 50 inserts")
    func concurrentInserts() async throws {
        let database = try TemporaryDatabase()
        let first = try database.store()
        let second = try database.store()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                let notes = task.isMultiple(of: 2) ? first : second
                group.addTask {
                    for index in 0..<50 { try await notes.insert(Note(id: task * 1_000 + index, title: "t")) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await first.count() == 400)
    }

    @Test("reports a database that cannot be opened")
    func unopenable() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/notes.sqlite")
        #expect(throws: StorageError.self) { try RecordStore<Note>(sqlite: missing) }
    }
}
