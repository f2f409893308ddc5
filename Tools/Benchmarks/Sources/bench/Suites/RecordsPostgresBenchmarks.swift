import Foundation
import PostgresNIO
import Storage
import StoragePostgres
import StoragePostgresTesting

/// Benchmarks of record queries (issue 23) on the PostgreSQL backend against raw postgres-nio,
/// on a real server the suite starts itself (`PostgresTestServer`, from StoragePostgresTesting) and
/// stops when its cases are done (``SuiteCleanup``).
///
/// - `insert-10k-postgres`: open a `PostgresRecordBackend` on a fresh table (created with its
///   two indexed field columns) and insert 10 000 queryable records in one batch, against raw
///   postgres-nio creating a table with the same two indexed columns and inserting the same rows
///   in one transaction through a prepared statement. Each side opens its own pool, so both pay
///   for connecting and creating the table; the same server settings make durability equal.
/// - `query-100-of-100k-postgres`: fetch the 100 records of one bucket out of 100 000 with a
///   key-path predicate (`\.bucket == k`, answered through the field's index), against raw
///   postgres-nio running a prepared `SELECT … WHERE bucket = $1 ORDER BY id` on an indexed
///   column and decoding the rows into the struct.
///
/// Without PostgreSQL's server binaries the suite prints why to stderr and has no cases. A smoke
/// run (`--smoke`) inserts 1 000 records and queries 100 out of 2 000, to stay quick in CI.
enum RecordsPostgresBenchmarks {
    /// A queryable record, the same as the SQLite suite's.
    struct Note: Codable, Identifiable, Sendable {
        var id: Int
        var title: String
        var body: String
        var bucket: Int
        var score: Double
    }

    static func note(_ id: Int, buckets: Int) -> Note {
        Note(
            id: id, title: "Note \(id)", body: "Body of note number \(id), with some text.", bucket: id % buckets,
            score: Double(id) / 7)
    }

    static func cases(smoke: Bool) async throws -> [BenchmarkCase] {
        // Unlike the tests, no BOILERPLATE_REQUIRE_POSTGRES here: a missing installation never fails `make bench`.
        if let reason = PostgresTestServer.unavailableReason {
            FileHandle.standardError.write(Data("bench: records-postgres has no cases: \(reason)\n".utf8))
            return []
        }
        let server = try await PostgresTestServer.start()
        await SuiteCleanup.add { await server.stop() }
        let url = server.url
        let configuration = PostgresClient.Configuration(
            host: "127.0.0.1", port: server.port, username: PostgresTestServer.user, password: nil,
            database: PostgresTestServer.database, tls: .disable)
        // The peer's pool for the query case and the setup; stopped before the server.
        let raw = PostgresClient(configuration: configuration)
        let rawRunner = Task { await raw.run() }
        await SuiteCleanup.add {
            rawRunner.cancel()
            await rawRunner.value
        }

        let insertCount = smoke ? 1_000 : 10_000
        let toInsert = (0..<insertCount).map { note($0, buckets: insertCount / 100) }
        var cases: [BenchmarkCase] = []
        cases.append(
            BenchmarkCase(
                suite: "records-postgres", name: "insert-10k-postgres", peer: "raw postgres-nio", target: 0.8,
                ours: {
                    // A fresh table each unit: the previous unit's is dropped first, by both sides alike.
                    try await raw.query("DROP TABLE IF EXISTS note_insert")
                    let backend = try await PostgresRecordBackend<Note>(url: url, table: "note_insert")
                    do {
                        try await RecordStore(backend: backend).write { batch in
                            for note in toInsert { batch.insert(note) }
                        }
                    } catch {
                        try? await backend.shutdown()
                        throw error
                    }
                    try await backend.shutdown()
                },
                theirs: {
                    try await raw.query("DROP TABLE IF EXISTS raw_note_insert")
                    let client = PostgresClient(configuration: configuration)
                    let runner = Task { await client.run() }
                    defer { runner.cancel() }
                    try await client.withTransaction(logger: logger) { connection in
                        try await createRawTable("raw_note_insert", on: connection)
                        for note in toInsert {
                            _ = try await connection.execute(InsertRawNote(note: note), logger: logger)
                        }
                    }
                    runner.cancel()
                    await runner.value
                }))

        // One table of 100 000 records each, filled once and queried by every unit.
        let total = smoke ? 2_000 : 100_000
        let buckets = total / 100
        let all = (0..<total).map { note($0, buckets: buckets) }
        let backend = try await PostgresRecordBackend<Note>(url: url, table: "note_query")
        await SuiteCleanup.add { try? await backend.shutdown() }
        let store = RecordStore(backend: backend)
        try await store.write { batch in for note in all { batch.insert(note) } }
        try await raw.withTransaction(logger: logger) { connection in
            try await createRawTable("raw_note", on: connection)
            // The fastest load postgres-nio offers short of COPY: one statement over arrays.
            try await connection.query(
                """
                INSERT INTO raw_note (id, title, body, bucket, score)
                SELECT * FROM unnest(\(all.map(\.id))::bigint[], \(all.map(\.title))::text[], \(all.map(\.body))::text[],
                    \(all.map(\.bucket))::bigint[], \(all.map(\.score))::float8[])
                """, logger: logger)
        }
        try await raw.query("ANALYZE raw_note")
        try await raw.query("ANALYZE note_query")
        let bucket = 17
        cases.append(
            BenchmarkCase(
                suite: "records-postgres", name: "query-100-of-100k-postgres", peer: "raw postgres-nio", target: 0.8,
                ours: {
                    let found = try await store.fetch(where: \.bucket == bucket)
                    guard found.count == 100, found.allSatisfy({ $0.bucket == bucket }) else { throw Mismatch() }
                },
                theirs: {
                    var found: [Note] = []
                    for try await note in try await raw.execute(SelectRawBucket(bucket: bucket), logger: logger) {
                        found.append(note)
                    }
                    guard found.count == 100 else { throw Mismatch() }
                }))
        return cases
    }

    static let logger = Logger(label: "bench.records-postgres")

    /// The raw peer's table: the same two indexed fields our backend keeps as columns.
    static func createRawTable(_ name: String, on connection: PostgresConnection) async throws {
        try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    CREATE TABLE \(name) (id BIGINT PRIMARY KEY, title TEXT COLLATE "C" NOT NULL, body TEXT NOT NULL,
                        bucket BIGINT NOT NULL, score DOUBLE PRECISION NOT NULL)
                    """), logger: logger)
        try await connection.query(PostgresQuery(unsafeSQL: "CREATE INDEX ON \(name) (title)"), logger: logger)
        try await connection.query(PostgresQuery(unsafeSQL: "CREATE INDEX ON \(name) (bucket)"), logger: logger)
    }

    /// The peer's insert, prepared once per connection.
    struct InsertRawNote: PostgresPreparedStatement {
        static let sql = "INSERT INTO raw_note_insert (id, title, body, bucket, score) VALUES ($1, $2, $3, $4, $5)"
        typealias Row = ()
        var note: Note

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(note.id)
            bindings.append(note.title)
            bindings.append(note.body)
            bindings.append(note.bucket)
            bindings.append(note.score)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws {}
    }

    /// The peer's query, prepared once per connection.
    struct SelectRawBucket: PostgresPreparedStatement {
        static let sql = "SELECT id, title, body, bucket, score FROM raw_note WHERE bucket = $1 ORDER BY id"
        typealias Row = Note
        var bucket: Int

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(bucket)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Note {
            let (id, title, body, bucket, score) = try row.decode((Int, String, String, Int, Double).self)
            return Note(id: id, title: title, body: body, bucket: bucket, score: score)
        }
    }

    struct Mismatch: Error {}
}

extension RecordsPostgresBenchmarks.Note: QueryableRecord {
    static let queryableFields: [QueryField<RecordsPostgresBenchmarks.Note>] = [
        QueryField(\.title, "title"), QueryField(\.bucket, "bucket"),
    ]
}
