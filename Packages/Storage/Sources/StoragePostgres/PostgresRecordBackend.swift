import Errors
import Foundation
import PostgresNIO
import Storage
import _KitSupport

/// Records in a PostgreSQL table, through postgres-nio: the `RecordStore` backend for
/// a server that runs as several instances sharing one database.
///
/// ```swift
/// let backend = try await PostgresRecordBackend<Note>(
///     url: URL(string: "postgres://boiler@127.0.0.1:5432/boiler")!, table: "notes")
/// let notes = RecordStore(backend: backend)
/// let top = try await notes.fetch(where: \.stars >= 3, sortedBy: \.stars, ascending: false, limit: 10)
/// try await backend.shutdown()
/// ```
///
/// The table is created on open and migrated: each `QueryableRecord` field gets a real
/// column (`q_<name>`) with a B-tree index, filled from the stored records when the field is new.
/// Queries run in the database with the same answers as the file and SQLite backends (text
/// columns use the `"C"` collation, so text compares by Unicode scalars). A trigger sends a
/// `NOTIFY` on every committed change, which ``changes(_:)`` listens to — so every instance
/// sees every other instance's writes. Records that conform to `RevisionedRecord` get
/// optimistic concurrency: a stale update is `RecordStoreError.staleRevision(id:expected:stored:in:)`.
public final class PostgresRecordBackend<Record: Codable & Identifiable & Sendable>: RecordBackend, Sendable
where Record.ID: Codable & Sendable {
    /// The connection pool; it runs until ``shutdown()``.
    public let client: PostgresClient
    /// The table's name.
    public let table: String

    private let runner: Task<Void, Never>
    let quotedTable: String
    let name: String
    /// The change log's table, quoted (see `ChangeLog`).
    let quotedLog: String
    /// Whether the table keeps a change feed: asked for, or found made when the backend opened.
    let feedEnabled = Locked(false)
    /// Called inside each logged write's transaction, around the moment positions are handed
    /// out, and at the end of the open's migration, so tests can hold a writer or an open there
    /// while another writes or opens.
    let feedPause: (@Sendable (ChangeFeedStep) async -> Void)?
    private let channel: String
    private let fields: [QueryField<Record>]
    private let queries: RecordSQL<Record>
    private let revisioned: Bool
    let logger: Logger
    /// Each connection's prepared statements for the reading queries.
    package let statements = PreparedStatementCache(capacity: PostgresRecordBackend.statementsPerConnection)

    /// How many query shapes stay prepared on each pooled connection: a shape is the SQL of a
    /// condition, sort and window with the values left out, so a handful cover an app's queries.
    package static var statementsPerConnection: Int { 32 }

    /// A backend over `table` of the database at `url`, created or migrated on open.
    ///
    /// - Parameters:
    ///   - url: `postgres://user[:password]@host[:port]/database`; `?sslmode=disable` turns TLS off
    ///     (the default prefers TLS when the server offers it), `?host=/path/to/socket/folder`
    ///     connects through a unix socket instead of TCP.
    ///   - table: The table holding the records: letters, digits and `_`, at most 40 characters.
    ///   - openTimeout: How long opening may wait for the server before failing (the pool
    ///     itself would keep retrying for a minute).
    ///   - changeFeed: Make the table's change feed (``changes(after:limit:)``) if it has none;
    ///     a backend opened on a table whose feed exists keeps it either way.
    /// - Throws: ``PostgresRecordError/invalidURL(_:reason:)``, ``PostgresRecordError/invalidTable(_:)``,
    ///   or `StorageError.database(_:underlying:)` when the server cannot be reached in time or the
    ///   table migrated.
    public convenience init(
        url: URL, table: String = "records", openTimeout: Duration = .seconds(15), changeFeed: Bool = false
    ) async throws {
        try await self.init(
            configuration: try Self.configuration(from: url), table: table, openTimeout: openTimeout,
            changeFeed: changeFeed)
    }

    /// A backend over `table`, connecting with a postgres-nio configuration.
    /// - Throws: ``PostgresRecordError/invalidTable(_:)`` or `StorageError.database(_:underlying:)`.
    public convenience init(
        configuration: PostgresClient.Configuration, table: String = "records", openTimeout: Duration = .seconds(15),
        changeFeed: Bool = false
    ) async throws {
        try await self.init(
            configuration: configuration, table: table, openTimeout: openTimeout, changeFeed: changeFeed,
            feedPause: nil)
    }

    /// A backend whose logged writes call `feedPause` before and after taking their feed
    /// positions, and whose open calls it before its migration commits (for tests of concurrent
    /// writers and opens).
    package init(
        configuration: PostgresClient.Configuration, table: String, openTimeout: Duration, changeFeed: Bool,
        feedPause: (@Sendable (ChangeFeedStep) async -> Void)?
    ) async throws {
        guard let first = table.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic),
            table.utf8.count <= 40,
            table.unicodeScalars.allSatisfy({
                $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
            })
        else { throw PostgresRecordError.invalidTable(table) }
        self.table = table
        self.quotedTable = RecordSQL<Record>.quote(table)
        self.quotedLog = RecordSQL<Record>.quote(ChangeLog.table(for: table))
        self.feedPause = feedPause
        // Lower case: an unquoted LISTEN folds case; tables differing only in case share a channel,
        // which costs their observers an extra query, never a missed change.
        self.channel = "boiler_records_" + table.lowercased()
        let endpoint = configuration.unixSocketPath ?? "\(configuration.host ?? "?"):\(configuration.port ?? 5432)"
        self.name = "postgres://\(endpoint)/\(configuration.database ?? configuration.username) (table \(table))"
        self.fields = try QuerySchema.fields(of: Record.self)
        self.queries = RecordSQL(dialect: .postgres, table: quotedTable)
        self.revisioned = Record.self is any RevisionedRecord.Type
        var logger = Logger(label: "StoragePostgres")
        logger.logLevel = .critical
        self.logger = logger
        let client = PostgresClient(configuration: configuration)
        self.client = client
        self.runner = Task { await client.run() }
        // The migration runs in a task of its own and the open waits for it or for the timeout,
        // whichever is first; on a timeout the pool is stopped and the migration is not waited
        // for (see `poolStopPatience` for why it may never end).
        let migration = Task { try await self.migrate(changeFeed: changeFeed) }
        switch await Deadline.result(of: migration, within: openTimeout) {
        case .success: break
        case .failure(let error):
            await stop()
            throw Self.wrap(error, name)
        case nil:
            migration.cancel()
            await stop()
            throw StorageError.database(name, underlying: PostgresRecordError.noAnswer(after: openTimeout))
        }
    }

    /// Closes every connection; the backend cannot be used afterwards. Returns once the pool has
    /// stopped, or after ``poolStopPatience`` if it has not (see there).
    public func shutdown() async throws {
        await stop()
    }

    /// How long a shutdown (or a failed open) waits for the connection pool to end.
    ///
    /// postgres-nio 1.33's pool, stopped while it is still making its first connection, can
    /// leave a lease, or `run()` itself, waiting forever. Reproduced by `OpenTimeoutTests` (opens
    /// timing out a few milliseconds in) and seen in loaded test runs, where every open of a
    /// starved server timed out at once and then waited past the tests' time limits. So neither an
    /// open that timed out nor a shutdown waits for more than this; what is left behind holds no
    /// connection (the pool has closed them all).
    public static var poolStopPatience: Duration { .seconds(10) }

    private func stop() async {
        runner.cancel()
        _ = await Deadline.result(of: runner, within: Self.poolStopPatience)
    }

    // MARK: Schema

    /// Creates the table, its field columns and indexes, and the change trigger; fills columns
    /// of fields declared since the last open. An advisory lock keeps two instances opening
    /// at once from migrating over each other.
    private func migrate(changeFeed: Bool) async throws {
        let logger = logger
        let fields = fields
        let quotedTable = quotedTable
        let table = table
        let channel = channel
        let name = name
        try await client.withConnection { connection in
            try await self.createFeedsTable(on: connection)
            try await connection.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(table)))", logger: logger)
                // Filling new field columns rewrites rows but no record changes: the feed's guard
                // must let it through.
                let setting = self.loggedSetting
                try await connection.query("SELECT set_config(\(setting), 't', true)", logger: logger)
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            CREATE TABLE IF NOT EXISTS \(quotedTable) (
                                id TEXT COLLATE "C" PRIMARY KEY, seq BIGSERIAL NOT NULL, body BYTEA NOT NULL,
                                revision BIGINT NOT NULL DEFAULT 0)
                            """), logger: logger)
                var existing = Set<String>()
                let columns = try await connection.query(
                    "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = \(table)",
                    logger: logger)
                for try await column in columns.decode(String.self) { existing.insert(column) }
                let added = fields.filter { !existing.contains("q_" + $0.name) }
                for field in added {
                    let type =
                        switch field.kind {
                        case .bool, .integer: "BIGINT"
                        case .real: "DOUBLE PRECISION"
                        case .text: "TEXT COLLATE \"C\""
                        }
                    try await connection.query(
                        PostgresQuery(
                            unsafeSQL:
                                "ALTER TABLE \(quotedTable) ADD COLUMN \(RecordSQL<Record>.column(field.name)) \(type)"),
                        logger: logger)
                }
                if !added.isEmpty {
                    var pending: [(String, Data)] = []
                    let rows = try await connection.query(
                        PostgresQuery(unsafeSQL: "SELECT id, body FROM \(quotedTable)"), logger: logger)
                    for try await (id, body) in rows.decode((String, Data).self) { pending.append((id, body)) }
                    let assignments = added.enumerated().map { "\(RecordSQL<Record>.column($1.name)) = $\($0 + 2)" }
                    let sql = "UPDATE \(quotedTable) SET \(assignments.joined(separator: ", ")) WHERE id = $1"
                    for (id, body) in pending {
                        let record = try RecordCoding.decode(Record.self, from: body, in: name)
                        var binds = PostgresBindings()
                        binds.append(id)
                        for field in added { Self.bind(field.value(of: record), to: &binds) }
                        try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
                    }
                }
                for field in fields {
                    let index = RecordSQL<Record>.quote("\(table)_q_\(field.name)")
                    try await connection.query(
                        PostgresQuery(
                            unsafeSQL:
                                "CREATE INDEX IF NOT EXISTS \(index) ON \(quotedTable) (\(RecordSQL<Record>.column(field.name)))"
                        ), logger: logger)
                }
                let function = RecordSQL<Record>.quote("\(table)_notify")
                let trigger = RecordSQL<Record>.quote("\(table)_notify")
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
                            BEGIN PERFORM pg_notify('\(channel)', ''); RETURN NULL; END $$
                            """), logger: logger)
                try await connection.query(
                    PostgresQuery(unsafeSQL: "DROP TRIGGER IF EXISTS \(trigger) ON \(quotedTable)"), logger: logger)
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            CREATE TRIGGER \(trigger) AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(quotedTable)
                            FOR EACH STATEMENT EXECUTE FUNCTION \(function)()
                            """), logger: logger)
                let feed = try await self.prepareFeed(create: changeFeed, on: connection)
                self.feedEnabled.withLock { $0 = feed }
                await self.feedPause?(.migrated)
            }
        }
    }

    // MARK: Reading

    /// Every record, in insertion order.
    public func fetchAll() async throws -> [Record] {
        try await bodies("SELECT body FROM \(quotedTable) ORDER BY seq", [])
    }

    /// The record with `id`, or nil.
    public func fetch(id: Record.ID) async throws -> Record? {
        try await bodies("SELECT body FROM \(quotedTable) WHERE id = $1", [.text(RecordID.string(for: id))]).first
    }

    /// The number of records.
    public func count() async throws -> Int {
        try await scalar("SELECT COUNT(*) FROM \(quotedTable)", [])
    }

    /// The records `plan` selects, filtered, sorted and windowed by PostgreSQL using the field indexes.
    public func fetch(_ plan: RecordQueryPlan<Record>) async throws -> [Record] {
        let (sql, values) = queries.select("body", plan)
        return try await bodies(sql, values)
    }

    /// The number of records `plan`'s condition selects, counted by PostgreSQL.
    public func count(_ plan: RecordQueryPlan<Record>) async throws -> Int {
        let (sql, values) = queries.count(plan)
        return try await scalar(sql, values)
    }

    /// The records `plan` selects now, then after every committed change to the table by any
    /// client: a trigger sends `NOTIFY`, this backend `LISTEN`s on one pooled connection per
    /// observation and re-runs the query, yielding only result sets that differ.
    public func changes(_ plan: RecordQueryPlan<Record>) -> AsyncThrowingStream<[Record], any Error> {
        let (pokes, poke) = AsyncThrowingStream<Void, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let client = client
        let channel = channel
        let name = name
        let listener = Task {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        // Listening now: re-run once, so a change made before LISTEN took effect is seen.
                        poke.yield()
                        for try await _ in notifications { poke.yield() }
                    }
                }
                poke.finish()
            } catch {
                // A lost connection ends the observation with a typed error, not silence.
                poke.finish(throwing: Task.isCancelled ? nil : Self.wrap(error, name))
            }
        }
        return RecordObservation.stream(
            pokes: pokes, fetch: { try await self.fetch(plan) }, onTermination: { listener.cancel() })
    }

    // MARK: Writing

    /// Applies `changes` in one PostgreSQL transaction, all or nothing.
    ///
    /// - Parameter changes: The inserts, updates and deletions to apply, in order.
    /// - Throws: `StorageError.duplicateRecord`, `StorageError.recordNotFound`,
    ///   `RecordStoreError.staleRevision(id:expected:stored:in:)` (nothing applied), or
    ///   `StorageError.database(_:underlying:)`.
    public func apply(_ changes: [RecordChange<Record>]) async throws {
        try await write(changes, requiring: [:], receipt: nil)
    }

    /// Applies `changes` in one transaction, with `receipt` stored first and the revisions in
    /// `revisions` checked (their rows locked) before any change (see `ReceiptRecordBackend`).
    func write(
        _ changes: [RecordChange<Record>], requiring revisions: [String: Int], receipt: WriteReceipt?
    )
        async throws
    {
        let logger = logger
        let name = name
        let fields = fields
        let table = quotedTable
        let columns = fields.map { ", " + RecordSQL<Record>.column($0.name) }.joined()
        let marks = fields.indices.map { ", $\($0 + 4)" }.joined()
        let assignments = fields.enumerated().map { ", \(RecordSQL<Record>.column($1.name)) = $\($0 + 4)" }.joined()
        let insert =
            "INSERT INTO \(table) (id, body, revision\(columns)) VALUES ($1, $2, $3\(marks)) ON CONFLICT (id) DO NOTHING RETURNING 1"
        let upsert =
            "INSERT INTO \(table) (id, body, revision\(columns)) VALUES ($1, $2, $3\(marks)) ON CONFLICT (id) DO UPDATE SET body = $2, revision = $3\(assignments) RETURNING 1"
        let update = "UPDATE \(table) SET body = $2, revision = $3\(assignments) WHERE id = $1 RETURNING 1"
        let guarded =
            "UPDATE \(table) SET body = $2, revision = $3\(assignments) WHERE id = $1 AND revision = $\(fields.count + 4) RETURNING 1"
        let delete = "DELETE FROM \(table) WHERE id = $1 RETURNING revision"
        let revisionOf = "SELECT revision FROM \(table) WHERE id = $1"
        let revisioned = revisioned
        let perRow = fields.count + 3
        // Rows per multi-row INSERT: large enough that round trips stop mattering, small enough
        // to stay far below PostgreSQL's 65 535 parameters and keep each statement quick to parse.
        let insertChunk = max(1, min(1_000, 60_000 / perRow))
        let insertHead = "INSERT INTO \(table) (id, body, revision\(columns)) VALUES "
        let logging = feedEnabled.withLock { $0 }
        // Tombstones' ids, encoded before the transaction like the bodies.
        let deletedIDs: [Data?] = try changes.map { change in
            if logging, case .delete(let id) = change { try ChangeLog.encodedID(id, in: name) } else { nil }
        }
        do {
            try await client.withConnection { connection in
                try await connection.withTransaction(logger: logger) { connection in
                    if let receipt { try await self.store(receipt, on: connection) }
                    try await self.check(revisions, on: connection)
                    // The feed's log entries, written with the records in this transaction.
                    var logged: [ChangeLog.Write] = []
                    func run(
                        _ sql: String, _ id: String, _ record: Record, revision: Int, expected: Int? = nil
                    ) async throws
                        -> Bool
                    {
                        var binds = PostgresBindings()
                        binds.append(id)
                        try binds.append(RecordCoding.encode(Self.setting(record, revision: revision), in: name))
                        binds.append(Int64(revision))
                        for field in fields { Self.bind(field.value(of: record), to: &binds) }
                        if let expected { binds.append(Int64(expected)) }
                        var affected = 0
                        for try await _ in try await connection.query(
                            PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
                        {
                            affected += 1
                        }
                        return affected > 0
                    }
                    func storedRevision(_ id: String) async throws -> Int? {
                        var binds = PostgresBindings()
                        binds.append(id)
                        let rows = try await connection.query(
                            PostgresQuery(unsafeSQL: revisionOf, binds: binds), logger: logger)
                        for try await revision in rows.decode(Int64.self) { return Int(revision) }
                        return nil
                    }
                    /// Inserts `records` with multi-row `INSERT`s, a few round trips instead of one
                    /// per record; fails on the first record, in order, whose id is taken.
                    func insertAll(_ records: ArraySlice<Record>) async throws {
                        var start = records.startIndex
                        while start < records.endIndex {
                            let chunk = records[start..<min(start + insertChunk, records.endIndex)]
                            start = chunk.endIndex
                            var binds = PostgresBindings(capacity: chunk.count * perRow)
                            var ids: [String] = []
                            ids.reserveCapacity(chunk.count)
                            var sql = insertHead
                            for (row, record) in chunk.enumerated() {
                                let id = RecordID.string(for: record.id)
                                ids.append(id)
                                binds.append(id)
                                // An insert stores the record as given, its own revision included.
                                try binds.append(RecordCoding.encode(record, in: name))
                                binds.append(Int64(Self.revision(of: record) ?? 0))
                                for field in fields { Self.bind(field.value(of: record), to: &binds) }
                                sql += row == 0 ? "($" : ", ($"
                                sql += (1...perRow).map { String(row * perRow + $0) }.joined(separator: ", $")
                                sql += ")"
                            }
                            sql += " ON CONFLICT (id) DO NOTHING RETURNING id"
                            var inserted = Set<String>()
                            let rows = try await connection.query(
                                PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
                            for try await id in rows.decode(String.self) { inserted.insert(id) }
                            if inserted.count < ids.count {
                                // A skipped row: its id was stored before, or earlier in this chunk.
                                var seen = Set<String>()
                                for id in ids where !inserted.contains(id) || !seen.insert(id).inserted {
                                    throw StorageError.duplicateRecord(id: id, in: name)
                                }
                            }
                        }
                    }
                    var next = changes.startIndex
                    while next < changes.endIndex {
                        let change = changes[next]
                        next += 1
                        switch change {
                        case .insert:
                            // Consecutive inserts go together.
                            var records: [Record] = []
                            for pending in changes[(next - 1)...] {
                                guard case .insert(let record) = pending else { break }
                                records.append(record)
                            }
                            next += records.count - 1
                            try await insertAll(records[...])
                            if logging {
                                for record in records {
                                    logged.append(
                                        ChangeLog.Write(
                                            id: RecordID.string(for: record.id), deletedID: nil, revision: 0))
                                }
                            }
                        case .update(let record), .save(let record):
                            let id = RecordID.string(for: record.id)
                            if logging { logged.append(ChangeLog.Write(id: id, deletedID: nil, revision: 0)) }
                            let isSave = if case .save = change { true } else { false }
                            if revisioned, let expected = Self.revision(of: record) {
                                if try await run(guarded, id, record, revision: expected + 1, expected: expected) {
                                    continue
                                }
                                if let stored = try await storedRevision(id) {
                                    throw RecordStoreError.staleRevision(
                                        id: id, expected: expected, stored: stored, in: name)
                                }
                                guard isSave else { throw StorageError.recordNotFound(id: id, in: name) }
                                if !(try await run(insert, id, record, revision: expected)) {
                                    // Inserted by someone else since the update found nothing.
                                    throw RecordStoreError.staleRevision(
                                        id: id, expected: expected, stored: -1, in: name)
                                }
                            } else if isSave {
                                _ = try await run(upsert, id, record, revision: 0)
                            } else if !(try await run(update, id, record, revision: 0)) {
                                throw StorageError.recordNotFound(id: id, in: name)
                            }
                        case .delete(let recordID):
                            var binds = PostgresBindings()
                            let id = RecordID.string(for: recordID)
                            binds.append(id)
                            let rows = try await connection.query(
                                PostgresQuery(unsafeSQL: delete, binds: binds), logger: logger)
                            for try await revision in rows.decode(Int64.self) where logging {
                                // Deleting a missing id returns no row and logs nothing.
                                logged.append(
                                    ChangeLog.Write(id: id, deletedID: deletedIDs[next - 1], revision: Int(revision)))
                            }
                        }
                    }
                    if logging { try await self.log(logged, on: connection) }
                }
            }
        } catch {
            throw Self.wrap(error, name)
        }
    }

    // MARK: Helpers

    /// The rows of `sql` with `values` bound to its `$n`, through the connection's prepared statement.
    private func rows(_ sql: String, _ values: [QueryValue]) async throws -> [PostgresRow] {
        let (sql, binds) = Self.typed(sql, values)
        let statements = statements
        return try await client.withConnection { connection in
            try await statements.rows(sql, binds, on: connection)
        }
    }

    private func bodies(_ sql: String, _ values: [QueryValue]) async throws -> [Record] {
        let name = name
        do {
            let rows = try await rows(sql, values)
            let reader = RecordCoding.Reader<Record>(in: name)
            var records: [Record] = []
            records.reserveCapacity(rows.count)
            for row in rows {
                // Read where the row's buffer holds the body: no copy into a `Data` first.
                let body = try row.decode(ByteBuffer.self)
                records.append(try body.withUnsafeReadableBytes { try reader.decode($0) })
            }
            return records
        } catch {
            throw Self.wrap(error, name)
        }
    }

    private func scalar(_ sql: String, _ values: [QueryValue]) async throws -> Int {
        do {
            guard let row = try await rows(sql, values).first else { return 0 }
            // postgres-nio 1.33 labels a `PreparedQuery`'s cells text while the server sends them
            // binary (results are always asked for in binary), so `Int64` decoding refuses the
            // cell: read the eight big-endian bytes, or the digits should the label ever be right.
            var cell = try row.decode(ByteBuffer.self)
            if cell.readableBytes == 8, let count = cell.readInteger(as: Int64.self) { return Int(count) }
            let text = cell.readString(length: cell.readableBytes) ?? ""
            guard let count = Int(text) else {
                throw StorageError.database(name, underlying: PostgresRecordError.unreadableCount(text))
            }
            return count
        } catch {
            throw Self.wrap(error, name)
        }
    }

    private static func revision(of record: Record) -> Int? { (record as? any RevisionedRecord)?.revision }

    private static func setting(_ record: Record, revision: Int) -> Record {
        guard var revised = record as? any RevisionedRecord else { return record }
        revised.revision = revision
        return revised as? Record ?? record
    }

    static func wrap(_ error: any Error, _ name: String) -> any Error {
        switch error {
        case let error as StorageError: error
        case let error as RecordStoreError: error
        case let error as ChangeFeedError: error
        case let error as PostgresRecordError: error
        case let error as WriteReceiptTaken: error
        case let error as PostgresTransactionError:
            error.closureError.map { wrap($0, name) } ?? StorageError.database(name, underlying: error)
        default: StorageError.database(name, underlying: error)
        }
    }
}
