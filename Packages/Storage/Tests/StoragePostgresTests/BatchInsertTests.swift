import Foundation
import Storage
import StoragePostgres
import StoragePostgresTesting
import Testing

/// A batch's consecutive inserts travel as multi-row `INSERT`s of up to a thousand records: the
/// batch must still keep the given order, stay all or nothing, and name the first taken id.
@Suite("Batched inserts on PostgreSQL (a real server started by the test)", .timeLimit(.minutes(5)))
struct BatchInsertTests {
    /// More than two statements' worth, in an order that is not the ids' order.
    static let records = (0..<2_345).map { Note(id: ($0 * 7_919) % 2_345, text: "n\($0 % 10)", stars: $0 % 5) }

    @Test("inserts thousands of records in one batch, in the given order, with their fields queryable")
    func order() async throws {
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<Note>(url: server.url, table: "notes")
            let notes = RecordStore(backend: backend)
            try await notes.insert(Note(id: -1, text: "first", stars: 9))
            try await notes.write { batch in
                batch.delete(id: -1)
                for note in Self.records { batch.insert(note) }
                batch.update(Note(id: 5, text: "five", stars: 9))
            }
            let expected = Self.records.map { $0.id == 5 ? Note(id: 5, text: "five", stars: 9) : $0 }
            #expect(try await notes.fetchAll() == expected)
            #expect(try await notes.count(where: \.stars == 4) == Self.records.filter { $0.stars == 4 }.count)
            #expect(try await notes.fetch(where: \.text == "five").map(\.id) == [5])
            try await backend.shutdown()
        }
    }

    @Test(
        "a taken id anywhere in a batch fails it whole, naming the first such record in order",
        arguments: [
            // Ids stored before, in the second statement's rows.
            ([1_500: 7, 2_000: 8], 7),
            // An id repeated within one statement's rows.
            ([10: 20_000, 20: 20_000], 20_000),
            // An id repeated across statements: the later one is the taken one.
            ([5: 20_001, 1_999: 20_001], 20_001),
        ])
    func duplicate(_ replacements: [Int: Int], _ taken: Int) async throws {
        try await PostgresTestServer.with { server in
            let backend = try await PostgresRecordBackend<Note>(url: server.url, table: "notes")
            let notes = RecordStore(backend: backend)
            try await notes.write { batch in
                for id in [7, 8] { batch.insert(Note(id: id, text: "stored", stars: 0)) }
            }
            // The batch's own ids are offset so only the replacements collide.
            var batchRecords = Self.records.map { Note(id: $0.id + 10_000, text: $0.text, stars: $0.stars) }
            for (index, id) in replacements { batchRecords[index].id = id }
            let inserts = batchRecords
            let error = await #expect(throws: StorageError.self) {
                try await notes.write { batch in for note in inserts { batch.insert(note) } }
            }
            guard case .duplicateRecord(let id, _) = error else {
                Issue.record("expected duplicateRecord, got \(String(describing: error))")
                return
            }
            #expect(id == String(taken))
            #expect(try await notes.count() == 2)
            #expect(try await notes.fetch(id: 7)?.text == "stored")
            try await backend.shutdown()
        }
    }
}
