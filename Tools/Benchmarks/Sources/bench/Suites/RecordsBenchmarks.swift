import Foundation
import GRDB
import Storage
import StorageSQLite

/// Benchmarks of record queries (issue 23) on the SQLite backend against raw GRDB.
///
/// - `insert-10k-sqlite`: insert 10 000 queryable records (two indexed fields) in one
///   transaction into a fresh database, against raw GRDB inserting the same rows into a table
///   with the same two indexed columns, in one transaction.
/// - `query-100-of-100k-sqlite`: fetch the 100 records of one bucket out of 100 000 with a
///   key-path predicate (`\.bucket == k`, answered through the field's index), against raw GRDB
///   running `SELECT … WHERE bucket = ?` on an indexed column and decoding the rows.
/// - `query-vs-closure-100k-sqlite`: the same key-path query against today's closure
///   `fetch(where:)`, which loads and decodes all 100 000 records to filter them in Swift.
///
/// PostgreSQL against raw postgres-nio is the `records-postgres` suite
/// (`RecordsPostgresBenchmarks`), on a server it starts itself.
enum RecordsBenchmarks {
    /// A queryable record; also a GRDB record for the raw peer.
    struct Note: Codable, Identifiable, Sendable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "note"
        var id: Int
        var title: String
        var body: String
        var bucket: Int
        var score: Double
    }

    static let bucketCount = 1_000

    static func note(_ id: Int) -> Note {
        Note(
            id: id, title: "Note \(id)", body: "Body of note number \(id), with some text.", bucket: id % bucketCount,
            score: Double(id) / 7)
    }

    /// Creates the raw peer's table: the same two indexed fields our backend keeps as columns.
    static func createRawTable(_ db: Database) throws {
        try db.create(table: "note") { table in
            table.primaryKey("id", .integer)
            table.column("title", .text).notNull().indexed()
            table.column("body", .text).notNull()
            table.column("bucket", .integer).notNull().indexed()
            table.column("score", .double).notNull()
        }
    }

    static func cases() async throws -> [BenchmarkCase] {
        // Removed with its databases when the run ends (the 100k databases serve two cases).
        let folder = try ScratchFolders.make("records-bench")
        let fresh = { folder.appendingPathComponent("\(UUID().uuidString).sqlite") }
        let tenThousand = (0..<10_000).map(note)
        var cases: [BenchmarkCase] = []

        cases.append(
            BenchmarkCase(
                suite: "records", name: "insert-10k-sqlite", peer: "raw GRDB", target: 0.8,
                ours: {
                    let url = fresh()
                    defer { StorageBenchmarks.removeDatabase(url) }
                    let store = try RecordStore<Note>(sqlite: url, table: "note")
                    try await store.write { batch in for note in tenThousand { batch.insert(note) } }
                },
                theirs: {
                    let url = fresh()
                    defer { StorageBenchmarks.removeDatabase(url) }
                    let queue = try DatabaseQueue(path: url.path)
                    try await queue.write { db in
                        try createRawTable(db)
                        for note in tenThousand { try note.insert(db) }
                    }
                }))

        // One database of 100 000 records each, built once and queried by every unit.
        let hundredThousand = (0..<100_000).map(note)
        let store = try RecordStore<Note>(sqlite: fresh(), table: "note")
        try await store.write { batch in for note in hundredThousand { batch.insert(note) } }
        let raw = try DatabaseQueue(path: fresh().path)
        try await raw.write { db in
            try createRawTable(db)
            for note in hundredThousand { try note.insert(db) }
        }
        let bucket = 417
        let keyPathQuery = {
            let found = try await store.fetch(where: \.bucket == bucket)
            guard found.count == 100, found.allSatisfy({ $0.bucket == bucket }) else { throw Mismatch() }
        }
        cases.append(
            BenchmarkCase(
                suite: "records", name: "query-100-of-100k-sqlite", peer: "raw GRDB", target: 0.8,
                ours: keyPathQuery,
                theirs: {
                    let found = try await raw.read { db in
                        try Note.fetchAll(
                            db, sql: "SELECT * FROM note WHERE bucket = ? ORDER BY id", arguments: [bucket])
                    }
                    guard found.count == 100 else { throw Mismatch() }
                }))
        cases.append(
            BenchmarkCase(
                suite: "records", name: "query-vs-closure-100k-sqlite", peer: "closure fetch(where:)", target: 20,
                ours: keyPathQuery,
                theirs: {
                    let found = try await store.fetch(where: { $0.bucket == bucket })
                    guard found.count == 100 else { throw Mismatch() }
                }))
        return cases
    }

    struct Mismatch: Error {}
}

extension RecordsBenchmarks.Note: QueryableRecord {
    static let queryableFields: [QueryField<RecordsBenchmarks.Note>] = [
        QueryField(\.title, "title"), QueryField(\.bucket, "bucket"),
    ]
}
