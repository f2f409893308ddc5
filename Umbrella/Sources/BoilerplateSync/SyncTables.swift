import Foundation
import GRDB
import Storage
import _KitSupport

/// The sync bookkeeping beside a record table, in the same SQLite database so that it commits
/// with the records:
///
/// - `<table>__outbox`: local changes not yet acknowledged, in the order they were made, each
///   with its idempotency key (made with the entry, so every retry sends the same key) and, once
///   first sent, the request it was sent as (method and base revision), so a retry is the same
///   request even after a restart.
/// - `<table>__shadow`: the server's revision of each record it has, as last heard — the base
///   revision of the next update or delete.
/// - `<table>__conflicts`: every conflict and its decision.
/// - `<table>__seen`: the ids a full re-fetch has read so far.
/// - `boilerplate_sync`: the client id (one per database) and each table's cursor and re-fetch state.
struct SyncTables: Sendable {
    let table: String
    let records: String
    let outbox: String
    let shadow: String
    let conflicts: String
    let seen: String
    let refusals: String
    static let state = quote("boilerplate_sync")

    init(table: String) {
        self.table = table
        records = Self.quote(table)
        outbox = Self.quote(table + "__outbox")
        shadow = Self.quote(table + "__shadow")
        conflicts = Self.quote(table + "__conflicts")
        seen = Self.quote(table + "__seen")
        refusals = Self.quote(table + "__refusals")
    }

    /// Numbers the outbox sizes the store's transactions read. They run one at a time on its
    /// queue, so the numbers follow their order, and an engine shows the newest size rather than
    /// the last to reach it.
    private let readings = Locked<UInt64>(0)

    static func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// Creates the tables when missing, and the client id when the database has none. A table
    /// that held records before it was synced has them all queued (in insertion order), so that
    /// adopting sync uploads what the app already had.
    func create(_ db: Database) throws {
        let adopting = try !db.tableExists(table + "__outbox")
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS \(outbox) (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL,
                    op TEXT NOT NULL, body BLOB, key TEXT NOT NULL, method TEXT, base INTEGER);
                CREATE INDEX IF NOT EXISTS \(Self.quote(table + "__outbox_id")) ON \(outbox) (id, seq);
                CREATE TABLE IF NOT EXISTS \(shadow) (id TEXT PRIMARY KEY NOT NULL, revision INTEGER NOT NULL,
                    body BLOB);
                CREATE TABLE IF NOT EXISTS \(conflicts) (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL,
                    kind TEXT NOT NULL, local BLOB, server BLOB, server_revision INTEGER, decision TEXT NOT NULL,
                    merged BLOB);
                CREATE TABLE IF NOT EXISTS \(seen) (id TEXT PRIMARY KEY NOT NULL);
                CREATE TABLE IF NOT EXISTS \(refusals) (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL,
                    op TEXT NOT NULL, record BLOB, status INTEGER NOT NULL, reason TEXT, detail TEXT, field TEXT,
                    outcome TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS \(Self.state) (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                """)
        try db.execute(
            sql: "INSERT INTO \(Self.state) (name, value) VALUES ('client', ?) ON CONFLICT (name) DO NOTHING",
            arguments: [UUID().uuidString])
        if adopting {
            // A random 128-bit key per record, in the idempotency key's alphabet.
            try db.execute(
                sql: """
                    INSERT INTO \(outbox) (id, op, body, key)
                    SELECT id, 'save', body, lower(hex(randomblob(16))) FROM \(records) ORDER BY rowid
                    """)
        }
    }

    // MARK: State

    func value(_ name: String, in db: Database) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT value FROM \(Self.state) WHERE name = ?"), arguments: [name])
    }

    func set(_ name: String, to value: String?, in db: Database) throws {
        if let value {
            try db.cachedStatement(
                sql:
                    "INSERT INTO \(Self.state) (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value"
            ).execute(arguments: [name, value])
        } else {
            try db.cachedStatement(sql: "DELETE FROM \(Self.state) WHERE name = ?").execute(arguments: [name])
        }
    }

    var cursorName: String { table + "/cursor" }
    var refetchName: String { table + "/refetch" }

    // MARK: Outbox

    /// Appends a change to the outbox with a new idempotency key.
    func enqueue(id: String, op: OutboxEntry.Op, body: Data?, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO \(outbox) (id, op, body, key) VALUES (?, ?, ?, ?)")
            .execute(arguments: [id, op.rawValue, body, UUID().uuidString])
    }

    func pendingCount(in db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM \(outbox)")) ?? 0
    }

    /// ``pendingCount(in:)``, numbered in the order of the store's transactions.
    func pendingReading(in db: Database) throws -> PendingReading {
        let count = try pendingCount(in: db)
        return PendingReading(
            count: count,
            order: readings.withLock {
                $0 += 1; return $0
            })
    }

    func hasPending(id: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM \(outbox) WHERE id = ? LIMIT 1"), arguments: [id])
            ?? false
    }

    func entries(limit: Int, in db: Database) throws -> [OutboxEntry] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT seq, id, op, body, key, method, base FROM \(outbox) ORDER BY seq LIMIT ?"),
            arguments: [limit]
        ).map(OutboxEntry.init(row:))
    }

    func entries(in db: Database) throws -> [OutboxEntry] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT seq, id, op, body, key, method, base FROM \(outbox) ORDER BY seq")
        ).map(OutboxEntry.init(row:))
    }

    func entry(seq: Int64, in db: Database) throws -> OutboxEntry? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT seq, id, op, body, key, method, base FROM \(outbox) WHERE seq = ?"),
            arguments: [seq]
        ).map(OutboxEntry.init(row:))
    }

    /// Records the request an entry is first sent as, so every retry sends the same one.
    func markSent(seq: Int64, method: String, base: Int?, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE \(outbox) SET method = ?, base = ? WHERE seq = ?")
            .execute(arguments: [method, base, seq])
    }

    func remove(seq: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM \(outbox) WHERE seq = ?").execute(arguments: [seq])
    }

    func removePending(id: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM \(outbox) WHERE id = ?").execute(arguments: [id])
    }

    // MARK: Shadow

    func serverRevision(of id: String, in db: Database) throws -> Int? {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT revision FROM \(shadow) WHERE id = ?"), arguments: [id])
    }

    /// Stores the server's revision of `id` (the base of its next write); nil: the server has no
    /// record `id`. The server's copy kept beside it is cleared: set it again with
    /// ``setServerBody(of:to:in:)`` when changes of the record stay pending.
    func setServerRevision(of id: String, to revision: Int?, in db: Database) throws {
        if let revision {
            try db.cachedStatement(
                sql: """
                    INSERT INTO \(shadow) (id, revision) VALUES (?, ?)
                    ON CONFLICT (id) DO UPDATE SET revision = excluded.revision, body = NULL
                    """
            ).execute(arguments: [id, revision])
        } else {
            try db.cachedStatement(sql: "DELETE FROM \(shadow) WHERE id = ?").execute(arguments: [id])
        }
    }

    /// The server's copy of `id` at its shadow revision, kept while the record has pending
    /// changes (what a refused write sets the record back to); nil when not kept.
    func serverBody(of id: String, in db: Database) throws -> Data? {
        try Data.fetchOne(db.cachedStatement(sql: "SELECT body FROM \(shadow) WHERE id = ?"), arguments: [id])
    }

    func setServerBody(of id: String, to body: Data?, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE \(shadow) SET body = ? WHERE id = ?").execute(arguments: [body, id])
    }

    /// Before the first pending change of `id`: keeps the local copy, which is then the server's
    /// (a record with nothing pending holds what the server last sent), as the server's copy.
    func keepServerCopy(of id: String, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE \(shadow) SET body = (SELECT body FROM \(records) WHERE id = ?1)
                WHERE id = ?1 AND body IS NULL AND NOT EXISTS (SELECT 1 FROM \(outbox) WHERE id = ?1)
                """
        ).execute(arguments: [id])
    }

    // MARK: Records

    func body(of id: String, in db: Database) throws -> Data? {
        try Data.fetchOne(db.cachedStatement(sql: "SELECT body FROM \(records) WHERE id = ?"), arguments: [id])
    }

    /// `record`, the server's copy at the server's revision, as sync stores it locally: at a
    /// revision past the local copy's when the content differs, so that one local revision never
    /// stands for two contents (a copy an editor read before is then refused as stale instead of
    /// overwriting what sync stored). Nil when the local copy already holds this content: nothing
    /// to store. The server's revision itself is kept in the shadow table, where bases come from.
    func localCopy<Record: RevisionedRecord & Codable>(of record: Record, id: String, in db: Database) throws -> Record?
    {
        guard let stored = try body(of: id, in: db) else { return record }
        let name = "\(db.description) (table \(table))"
        let local = try RecordCoding.decode(Record.self, from: stored, in: name)
        var same = record
        same.revision = local.revision
        if try RecordCoding.encode(same, in: name) == RecordCoding.encode(local, in: name) { return nil }
        var revised = record
        revised.revision = max(record.revision, local.revision + 1)
        return revised
    }

    func exists(_ id: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM \(records) WHERE id = ?"), arguments: [id]) ?? false
    }
}

/// One local change waiting in the outbox.
struct OutboxEntry: Sendable, Equatable {
    enum Op: String, Sendable {
        case save, delete
    }

    var seq: Int64
    var id: String
    var op: Op
    var body: Data?
    var key: String
    /// `POST`, `PUT` or `DELETE` once first sent; nil before.
    var method: String?
    var base: Int?

    init(row: Row) {
        seq = row[0]
        id = row[1]
        op = Op(rawValue: row[2]) ?? .save
        body = row[3]
        key = row[4]
        method = row[5]
        base = row[6]
    }
}

/// The outbox's size as one transaction read it, and that transaction's place in the store's
/// order.
struct PendingReading: Sendable {
    /// How many changes waited.
    var count: Int
    /// Higher for a later transaction of the same store.
    var order: UInt64
}
