import Foundation
import GRDB
import GRDBSQLite
import Storage

/// Records in a real SQLite table, through GRDB: the `RecordStore` backend for
/// collections that outgrew one file.
///
/// Each record is one row — its id as text (the primary key) and its JSON encoding — so an
/// insert or update writes one row instead of rewriting a file, fetching by id uses the primary
/// key index, and a batch is one SQLite transaction. SQLite's own locking makes the database
/// safe to share between processes.
///
/// ```swift
/// let notes = try RecordStore<Note>(sqlite: store.url(for: "notes.sqlite"))
/// try await notes.insert(Note(id: 1, title: "Groceries"))
/// ```
public final class SQLiteRecordBackend<Record: Codable & Identifiable & Sendable>: RecordBackend, Sendable
where Record.ID: Codable & Sendable {
    /// The database the table lives in.
    public let database: any DatabaseWriter
    /// The table's name.
    public let table: String

    let quotedTable: String
    let name: String
    /// The change log's table, quoted (see `ChangeLog`).
    let quotedLog: String
    private let fields: [QueryField<Record>]
    private let queries: RecordSQL<Record>
    private let revisioned = Record.self is any RevisionedRecord.Type
    /// The statements `apply` runs, by change kind (insert, update, save, delete), written once:
    /// each write looks them up in GRDB's statement cache once per batch, not once per row.
    private let writes: [String]
    let readBody: String

    /// A backend over the table `table` of the SQLite database at `url`, created if needed.
    ///
    /// - Parameters:
    ///   - url: The database file; its folder must exist.
    ///   - table: The table holding the records; one database may hold many collections.
    ///   - changeFeed: Keep a change feed of the table (``changes(after:limit:)``) from now on;
    ///     once made, every backend opened on the table keeps it.
    /// - Throws: `StorageError.database(_:underlying:)` when the database cannot be opened or
    ///   the table created.
    public convenience init(url: URL, table: String = "records", changeFeed: Bool = false) throws {
        var configuration = Configuration()
        // Another process may hold the write lock briefly: wait for it instead of failing.
        configuration.busyMode = .timeout(10)
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: url.path, configuration: configuration)
        } catch {
            throw StorageError.database(url.path, underlying: error)
        }
        try self.init(database: queue, table: table, changeFeed: changeFeed)
    }

    /// A backend over the table `table` of an open GRDB database (queue or pool), created if needed.
    ///
    /// - Parameters:
    ///   - database: An open GRDB database queue or pool.
    ///   - table: The table holding the records; one database may hold many collections.
    ///   - changeFeed: Keep a change feed of the table (``changes(after:limit:)``) from now on;
    ///     once made, every backend opened on the table keeps it.
    /// - Throws: `StorageError.database(_:underlying:)` when the table cannot be created.
    public init(database: any DatabaseWriter, table: String = "records", changeFeed: Bool = false) throws {
        self.database = database
        self.table = table
        let quotedTable = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        self.quotedTable = quotedTable
        self.quotedLog = RecordSQL<Record>.quote(ChangeLog.table(for: table))
        self.name = "\(database.path) (table \(table))"
        let fields = try QuerySchema.fields(of: Record.self)
        self.fields = fields
        self.queries = RecordSQL(dialect: .sqlite, table: quotedTable)
        let columns = fields.map { ", " + RecordSQL<Record>.column($0.name) }.joined()
        let marks = String(repeating: ", ?", count: fields.count)
        let assignments = fields.map { ", \(RecordSQL<Record>.column($0.name)) = ?" }.joined()
        let excluded = fields.map {
            ", \(RecordSQL<Record>.column($0.name)) = excluded.\(RecordSQL<Record>.column($0.name))"
        }.joined()
        self.writes = [
            "INSERT INTO \(quotedTable) (id, body\(columns)) VALUES (?, ?\(marks))",
            "UPDATE \(quotedTable) SET body = ?\(assignments) WHERE id = ?",
            "INSERT INTO \(quotedTable) (id, body\(columns)) VALUES (?, ?\(marks)) "
                + "ON CONFLICT(id) DO UPDATE SET body = excluded.body\(excluded)",
            "DELETE FROM \(quotedTable) WHERE id = ?",
        ]
        self.readBody = "SELECT body FROM \(quotedTable) WHERE id = ?"
        let create = "CREATE TABLE IF NOT EXISTS \(quotedTable) (id TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL)"
        do {
            try database.write { db in
                try db.execute(sql: create)
                try self.migrate(db)
                try self.prepareFeed(db, create: changeFeed)
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError.database(name, underlying: error)
        }
    }

    /// Adds a column and an index for each queryable field the table lacks, filling new columns
    /// from the stored records, so a field declared later is queryable on existing data.
    private func migrate(_ db: Database) throws {
        guard !fields.isEmpty else { return }
        let existing = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(\(quotedTable))").map { $0["name"] as String })
        let added = fields.filter { !existing.contains("q_" + $0.name) }
        for field in added {
            let type =
                switch field.kind {
                case .bool, .integer: "INTEGER"
                case .real: "REAL"
                case .text: "TEXT"
                }
            try db.execute(sql: "ALTER TABLE \(quotedTable) ADD COLUMN \(RecordSQL<Record>.column(field.name)) \(type)")
        }
        if !added.isEmpty {
            let assignments = added.map { "\(RecordSQL<Record>.column($0.name)) = ?" }.joined(separator: ", ")
            let update = try db.makeStatement(sql: "UPDATE \(quotedTable) SET \(assignments) WHERE id = ?")
            let rows = try Row.fetchCursor(db, sql: "SELECT id, body FROM \(quotedTable)")
            var pending: [(String, Data)] = []
            while let row = try rows.next() { pending.append((row["id"], row["body"])) }
            for (id, body) in pending {
                let record = try RecordCoding.decode(Record.self, from: body, in: name)
                var list: [(any DatabaseValueConvertible)?] = added.map { Self.argument($0.value(of: record)) }
                list.append(id)
                try update.execute(arguments: StatementArguments(list))
            }
        }
        // One index per field on (field, id): it finds a value's records and holds them in id
        // order, the order ties break in, so an equality query needs no sort. Databases made
        // before it had an index on the field alone, which this one supersedes.
        for field in fields {
            let index = RecordSQL<Record>.quote("\(table)_q2_\(field.name)")
            try db.execute(
                sql:
                    "CREATE INDEX IF NOT EXISTS \(index) ON \(quotedTable) (\(RecordSQL<Record>.column(field.name)), id)"
            )
            try db.execute(sql: "DROP INDEX IF EXISTS \(RecordSQL<Record>.quote("\(table)_q_\(field.name)"))")
        }
    }

    /// Every record, in insertion order.
    public func fetchAll() async throws -> [Record] {
        let sql = "SELECT body FROM \(quotedTable) ORDER BY rowid"
        return try await run {
            try await self.database.read { db in try self.records(db.cachedStatement(sql: sql), StatementArguments()) }
        }
    }

    /// The record with `id`, or nil.
    ///
    /// - Parameter id: The id of the record to fetch.
    /// - Returns: The record, or nil when none has this id.
    public func fetch(id: Record.ID) async throws -> Record? {
        let sql = "SELECT body FROM \(quotedTable) WHERE id = ?"
        let key = RecordID.string(for: id)
        return try await run {
            try await self.database.read { db in try self.records(db.cachedStatement(sql: sql), [key]).first }
        }
    }

    /// The number of records.
    public func count() async throws -> Int {
        let sql = "SELECT COUNT(*) FROM \(quotedTable)"
        return try await run {
            try await self.database.read { db in try Int.fetchOne(db.cachedStatement(sql: sql)) ?? 0 }
        }
    }

    /// Applies `changes` in one SQLite transaction, all or nothing.
    ///
    /// - Parameter changes: The inserts, updates and deletions to apply, in order.
    public func apply(_ changes: [RecordChange<Record>]) async throws {
        try await write(changes, requiring: [:], receipt: nil)
    }

    /// Applies `changes` in one SQLite transaction, with `receipt` stored first and the revisions
    /// in `revisions` checked before any change (see `ReceiptRecordBackend`).
    func write(
        _ changes: [RecordChange<Record>], requiring revisions: [String: Int], receipt: WriteReceipt?
    )
        async throws
    {
        // Encode before taking the write lock: other writers wait less.
        let rows = try encodedRows(changes, keepingRevisions: false)
        let now = Date().timeIntervalSince1970
        try await run {
            try await self.database.write { db in
                if let receipt { try self.store(receipt, at: now, in: db) }
                try self.check(revisions, in: db)
                try self.write(rows, at: now, in: db)
            }
        }
    }

    /// A write whose changes are decided inside its own transaction: `plan` runs first, under the
    /// write lock, may read and write other tables of the database (an outbox, a cursor), and
    /// returns the record changes to apply; they are applied by the same path as ``apply(_:)``
    /// (statements, change feed, observation), and everything commits together or not at all.
    ///
    /// With `keepingRevisions`, revisioned records are stored at the revision they carry — no
    /// check against the stored one, no increment — as a sync client stores the server's copy.
    /// An error `plan` throws rolls the transaction back and is rethrown as it is.
    package func write(
        keepingRevisions: Bool, _ plan: @escaping @Sendable (Database) throws -> [RecordChange<Record>]
    ) async throws {
        let now = Date().timeIntervalSince1970
        do {
            try await run {
                try await self.database.write { db in
                    let changes: [RecordChange<Record>]
                    do {
                        changes = try plan(db)
                    } catch {
                        throw PlannedWriteFailed(underlying: error)
                    }
                    try self.write(try self.encodedRows(changes, keepingRevisions: keepingRevisions), at: now, in: db)
                }
            }
        } catch let failure as PlannedWriteFailed {
            throw failure.underlying
        }
    }

    /// One change ready to execute: its statement kind (insert, update, save, delete), the id, the
    /// query values, the statement's arguments, the record when its revision is checked under the
    /// lock, and a deleted record's encoded id for the feed.
    private typealias EncodedRow = (
        kind: Int, id: String, values: [QueryValue], arguments: StatementArguments, record: Record?,
        deletedID: Data?
    )

    /// Encodes `changes` into statement arguments. `record` is kept only for revisioned updates,
    /// whose body is re-encoded under the lock (unless `keepingRevisions`).
    private func encodedRows(_ changes: [RecordChange<Record>], keepingRevisions: Bool) throws -> [EncodedRow] {
        let checksRevisions = revisioned && !keepingRevisions
        return try changes.map { change in
            let kind: Int
            let record: Record
            switch change {
            case .insert(let inserted): (kind, record) = (0, inserted)
            case .update(let updated): (kind, record) = (1, updated)
            case .save(let saved): (kind, record) = (2, saved)
            case .delete(let id):
                let key = RecordID.string(for: id)
                return (3, key, [], [key], nil, try ChangeLog.encodedID(id, in: name))
            }
            let id = RecordID.string(for: record.id)
            let values = fields.map { $0.value(of: record) }
            let body = try RecordCoding.encode(record, in: name)
            return (
                kind, id, values, Self.arguments(kind, id: id, body: body, values: values),
                checksRevisions && kind != 0 ? record : nil, nil
            )
        }
    }

    /// Executes `rows` and logs them in the change feed, inside the caller's write transaction.
    private func write(_ rows: [EncodedRow], at now: Double, in db: Database) throws {
        // The feed's log entries, written with the records in this transaction; nil when the
        // table keeps no feed (checked under the write lock, so a feed another process made since
        // this backend opened is kept too).
        var logged: [ChangeLog.Write]? = try hasFeed(db) ? [] : nil
        logged?.reserveCapacity(rows.count)
        // Each kind's statement is looked up once per batch: hashing its SQL per row costs as
        // much as binding the row.
        var prepared: [Statement?] = [nil, nil, nil, nil]
        for var row in rows {
            var deletedRevision = 0
            if row.kind == 3, logged != nil, revisioned,
                let stored = try Data.fetchOne(db.cachedStatement(sql: readBody), arguments: [row.id])
            {
                deletedRevision = Self.revision(of: try RecordCoding.decode(Record.self, from: stored, in: name)) ?? 0
            }
            if let record = row.record, let expected = Self.revision(of: record) {
                if let stored = try Data.fetchOne(db.cachedStatement(sql: readBody), arguments: [row.id]) {
                    let current = Self.revision(of: try RecordCoding.decode(Record.self, from: stored, in: name)) ?? 0
                    guard current == expected else {
                        throw RecordStoreError.staleRevision(id: row.id, expected: expected, stored: current, in: name)
                    }
                    let body = try RecordCoding.encode(Self.setting(record, revision: expected + 1), in: name)
                    row.arguments = Self.arguments(row.kind, id: row.id, body: body, values: row.values)
                } else if row.kind == 1 {
                    throw StorageError.recordNotFound(id: row.id, in: name)
                }
            }
            let statement: Statement
            if let known = prepared[row.kind] {
                statement = known
            } else {
                statement = try db.cachedStatement(sql: writes[row.kind])
                prepared[row.kind] = statement
            }
            switch row.kind {
            case 0:
                do {
                    try statement.execute(arguments: row.arguments)
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    throw StorageError.duplicateRecord(id: row.id, in: name)
                }
            case 1:
                try statement.execute(arguments: row.arguments)
                if db.changesCount == 0 { throw StorageError.recordNotFound(id: row.id, in: name) }
            default: try statement.execute(arguments: row.arguments)
            }
            if logged != nil {
                if row.kind != 3 {
                    logged?.append(ChangeLog.Write(id: row.id, deletedID: nil, revision: 0))
                } else if db.changesCount > 0 {
                    // Deleting a missing id changed nothing, so it logs nothing.
                    logged?.append(ChangeLog.Write(id: row.id, deletedID: row.deletedID, revision: deletedRevision))
                }
            }
        }
        if let logged { try log(logged, at: now, in: db) }
    }

    static func revision(of record: Record) -> Int? { (record as? any RevisionedRecord)?.revision }

    private static func setting(_ record: Record, revision: Int) -> Record {
        guard var revised = record as? any RevisionedRecord else { return record }
        revised.revision = revision
        return revised as? Record ?? record
    }

    /// A query value as a statement argument: booleans as 0/1, nil as NULL.
    private static func argument(_ value: QueryValue) -> (any DatabaseValueConvertible)? {
        switch value {
        case .null: nil
        case .bool(let flag): flag ? 1 : 0
        case .integer(let number): number
        case .real(let number): number
        case .text(let text): text
        }
    }

    /// The arguments of a query, built from existential values (see below: not from `DatabaseValue`s).
    private static func arguments(_ bindings: [QueryValue]) -> StatementArguments {
        StatementArguments(bindings.map { argument($0) })
    }

    /// The arguments of the statement for change `kind` (see `writes`). Built from existential
    /// values: GRDB's initializer from `DatabaseValue`s instantiates a key path on every call,
    /// which cost as much as the insert itself.
    private static func arguments(_ kind: Int, id: String, body: Data, values: [QueryValue]) -> StatementArguments {
        var list: [(any DatabaseValueConvertible)?] = []
        list.reserveCapacity(values.count + 2)
        if kind != 1 { list.append(id) }
        list.append(body)
        for value in values { list.append(argument(value)) }
        if kind == 1 { list.append(id) }
        return StatementArguments(list)
    }

    /// The records `plan` selects, filtered, sorted and windowed by SQLite using the field indexes.
    public func fetch(_ plan: RecordQueryPlan<Record>) async throws -> [Record] {
        let (sql, bindings) = queries.select("body", plan)
        let arguments = Self.arguments(bindings)
        return try await run {
            try await self.database.read { db in try self.records(db.makeStatement(sql: sql), arguments) }
        }
    }

    /// The records in the bodies `statement` selects, decoded from SQLite's own memory for each
    /// row. GRDB's cursor steps the statement (so its observation and error handling see every
    /// step); each body is read where SQLite holds it, with no `Data` made around it: per row,
    /// that wrapper cost a tenth of reading the record.
    private func records(_ statement: Statement, _ arguments: StatementArguments) throws -> [Record] {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        let reader = RecordCoding.Reader<Record>(in: name)
        let sqlite = statement.sqliteStatement
        var records: [Record] = []
        while try rows.next() != nil {
            // The blob's pointer must be taken before its length (SQLite's rule for column access).
            let start = sqlite3_column_blob(sqlite, 0)
            let count = Int(sqlite3_column_bytes(sqlite, 0))
            records.append(try reader.decode(UnsafeRawBufferPointer(start: count > 0 ? start : nil, count: count)))
        }
        return records
    }

    /// The number of records `plan`'s condition selects, counted by SQLite.
    public func count(_ plan: RecordQueryPlan<Record>) async throws -> Int {
        let (sql, bindings) = queries.count(plan)
        let arguments = Self.arguments(bindings)
        return try await run {
            try await self.database.read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0 }
        }
    }

    /// The records `plan` selects now, then after every committed transaction that touches the
    /// table through this backend's database handle (GRDB's `ValueObservation`). Writes through
    /// another handle or process are not signalled: share one backend (or one GRDB
    /// `DatabasePool`, passed to ``init(database:table:changeFeed:)``) between the writers you observe.
    public func changes(_ plan: RecordQueryPlan<Record>) -> AsyncThrowingStream<[Record], any Error> {
        let (sql, bindings) = queries.select("body", plan)
        let arguments = Self.arguments(bindings)
        let name = name
        let observation = ValueObservation.tracking { db in try Data.fetchAll(db, sql: sql, arguments: arguments) }
            .removeDuplicates()
        let values = observation.values(in: database)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await bodies in values {
                        continuation.yield(try bodies.map { try RecordCoding.decode(Record.self, from: $0, in: name) })
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(
                        throwing: (error as? StorageError) ?? StorageError.database(name, underlying: error))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as StorageError {
            throw error
        } catch let error as RecordStoreError {
            throw error
        } catch let error as ChangeFeedError {
            throw error
        } catch let error as WriteReceiptTaken {
            throw error
        } catch let error as PlannedWriteFailed {
            throw error
        } catch {
            throw StorageError.database(name, underlying: error)
        }
    }
}

/// An error thrown by the plan of ``SQLiteRecordBackend/write(keepingRevisions:_:)``, carried
/// through the database layer unwrapped.
struct PlannedWriteFailed: Error {
    let underlying: any Error
}

extension RecordStore {
    /// A store kept in the table `table` of the SQLite database at `url`.
    ///
    /// - Parameters:
    ///   - url: The database file; its folder must exist.
    ///   - table: The table holding the records; one database may hold many collections.
    ///   - changeFeed: Keep a change feed of the table (`RecordStore.changes(after:limit:)`).
    /// - Throws: `StorageError.database(_:underlying:)` when the database cannot be opened or the
    ///   table created.
    public init(sqlite url: URL, table: String = "records", changeFeed: Bool = false) throws {
        self.init(backend: try SQLiteRecordBackend<Record>(url: url, table: table, changeFeed: changeFeed))
    }
}
