import Foundation
import GRDB
import Storage

/// Records in a real SQLite table, through GRDB: the ``Storage/RecordStore`` backend for
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

    private let quotedTable: String
    private let name: String

    /// A backend over the table `table` of the SQLite database at `url`, created if needed.
    ///
    /// - Parameters:
    ///   - url: The database file; its folder must exist.
    ///   - table: The table holding the records; one database may hold many collections.
    /// - Throws: `StorageError.database(_:underlying:)` when the database cannot be opened or
    ///   the table created.
    public convenience init(url: URL, table: String = "records") throws {
        var configuration = Configuration()
        // Another process may hold the write lock briefly: wait for it instead of failing.
        configuration.busyMode = .timeout(10)
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: url.path, configuration: configuration)
        } catch {
            throw StorageError.database(url.path, underlying: error)
        }
        try self.init(database: queue, table: table)
    }

    /// A backend over the table `table` of an open GRDB database (queue or pool), created if needed.
    ///
    /// - Parameters:
    ///   - database: An open GRDB database queue or pool.
    ///   - table: The table holding the records; one database may hold many collections.
    /// - Throws: `StorageError.database(_:underlying:)` when the table cannot be created.
    public init(database: any DatabaseWriter, table: String = "records") throws {
        self.database = database
        self.table = table
        self.quotedTable = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        self.name = "\(database.path) (table \(table))"
        let sql = "CREATE TABLE IF NOT EXISTS \(quotedTable) (id TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL)"
        do {
            try database.write { db in try db.execute(sql: sql) }
        } catch {
            throw StorageError.database(name, underlying: error)
        }
    }

    /// Every record, in insertion order.
    public func fetchAll() async throws -> [Record] {
        let sql = "SELECT body FROM \(quotedTable) ORDER BY rowid"
        let bodies = try await run { try await self.database.read { db in try Data.fetchAll(db, sql: sql) } }
        return try bodies.map { try RecordCoding.decode(Record.self, from: $0, in: name) }
    }

    /// The record with `id`, or nil.
    ///
    /// - Parameter id: The id of the record to fetch.
    /// - Returns: The record, or nil when none has this id.
    public func fetch(id: Record.ID) async throws -> Record? {
        let sql = "SELECT body FROM \(quotedTable) WHERE id = ?"
        let key = RecordID.string(for: id)
        let body = try await run {
            try await self.database.read { db in try Data.fetchOne(db, sql: sql, arguments: [key]) }
        }
        return try body.map { try RecordCoding.decode(Record.self, from: $0, in: name) }
    }

    /// The number of records.
    public func count() async throws -> Int {
        let sql = "SELECT COUNT(*) FROM \(quotedTable)"
        return try await run { try await self.database.read { db in try Int.fetchOne(db, sql: sql) ?? 0 } }
    }

    /// Applies `changes` in one SQLite transaction, all or nothing.
    ///
    /// - Parameter changes: The inserts, updates and deletions to apply, in order.
    public func apply(_ changes: [RecordChange<Record>]) async throws {
        let name = name
        // Encode before taking the write lock: other writers wait less.
        let rows: [(kind: Int, id: String, body: Data?)] = try changes.map { change in
            switch change {
            case .insert(let record): (0, RecordID.string(for: record.id), try RecordCoding.encode(record, in: name))
            case .update(let record): (1, RecordID.string(for: record.id), try RecordCoding.encode(record, in: name))
            case .save(let record): (2, RecordID.string(for: record.id), try RecordCoding.encode(record, in: name))
            case .delete(let id): (3, RecordID.string(for: id), nil)
            }
        }
        let statements = [
            "INSERT INTO \(quotedTable) (id, body) VALUES (?, ?)",
            "UPDATE \(quotedTable) SET body = ? WHERE id = ?",
            "INSERT INTO \(quotedTable) (id, body) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body",
            "DELETE FROM \(quotedTable) WHERE id = ?",
        ]
        try await run {
            try await self.database.write { db in
                for row in rows {
                    let statement = try db.cachedStatement(sql: statements[row.kind])
                    switch row.kind {
                    case 0:
                        do {
                            try statement.execute(arguments: [row.id, row.body])
                        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                            throw StorageError.duplicateRecord(id: row.id, in: name)
                        }
                    case 1:
                        try statement.execute(arguments: [row.body, row.id])
                        if db.changesCount == 0 { throw StorageError.recordNotFound(id: row.id, in: name) }
                    case 2: try statement.execute(arguments: [row.id, row.body])
                    default: try statement.execute(arguments: [row.id])
                    }
                }
            }
        }
    }

    private func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError.database(name, underlying: error)
        }
    }
}

extension RecordStore {
    /// A store kept in the table `table` of the SQLite database at `url`.
    ///
    /// - Parameters:
    ///   - url: The database file; its folder must exist.
    ///   - table: The table holding the records; one database may hold many collections.
    /// - Throws: `StorageError.database(_:underlying:)` when the database cannot be opened or the
    ///   table created.
    public init(sqlite url: URL, table: String = "records") throws {
        self.init(backend: try SQLiteRecordBackend<Record>(url: url, table: table))
    }
}
