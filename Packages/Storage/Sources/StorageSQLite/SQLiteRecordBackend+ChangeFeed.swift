import Foundation
import GRDB
import Storage

/// The change feed on SQLite: a log table beside the records (`<table>__changes`, one row per
/// record holding its latest change's position) and the feed's row in `boiler_change_feeds`.
///
/// SQLite lets one transaction write at a time, database-wide, and positions are handed out
/// inside the write transaction from the feed's row: so positions commit in the order they are
/// handed out, and a reader (one read transaction, one snapshot) that sees a position sees every
/// lower one. No reader can skip a change.
extension SQLiteRecordBackend {
    /// Creates the feeds table, and when `create` is true this table's log and feed row, logging
    /// the records already stored (in insertion order) so a client reading from the start gets them.
    func prepareFeed(_ db: Database, create: Bool) throws {
        let feeds = RecordSQL<Record>.quote(ChangeLog.feedsTable)
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS \(feeds) (tbl TEXT PRIMARY KEY NOT NULL, feed TEXT NOT NULL,
                    last INTEGER NOT NULL, horizon INTEGER NOT NULL)
                """)
        guard create, try !hasFeed(db) else { return }
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS \(quotedLog) (id TEXT PRIMARY KEY NOT NULL,
                    position INTEGER NOT NULL UNIQUE, revision INTEGER NOT NULL, deleted_id BLOB, at REAL NOT NULL)
                """)
        // A log left by a feed whose row was removed would hold another feed's positions.
        try db.execute(sql: "DELETE FROM \(quotedLog)")
        try db.execute(
            sql: """
                INSERT INTO \(quotedLog) (id, position, revision, deleted_id, at)
                SELECT id, ROW_NUMBER() OVER (ORDER BY rowid), 0, NULL, ? FROM \(quotedTable)
                """, arguments: [Date().timeIntervalSince1970])
        let count = try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM \(quotedTable)") ?? 0
        try db.execute(
            sql: "INSERT INTO \(feeds) (tbl, feed, last, horizon) VALUES (?, ?, ?, 0)",
            arguments: [table, ChangeCursor.newFeedID(), count])
    }

    /// Whether the table keeps a feed.
    func hasFeed(_ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT 1 FROM \(RecordSQL<Record>.quote(ChangeLog.feedsTable)) WHERE tbl = ?"),
            arguments: [table]) ?? false
    }

    /// Hands out the next positions to `writes` (each record's last change in the batch) and
    /// stores them in the log, in the write's own transaction.
    func log(_ writes: [ChangeLog.Write], at time: Double, in db: Database) throws {
        let entries = ChangeLog.coalesced(writes)
        guard !entries.isEmpty else { return }
        let feeds = RecordSQL<Record>.quote(ChangeLog.feedsTable)
        try db.cachedStatement(sql: "UPDATE \(feeds) SET last = last + ? WHERE tbl = ?")
            .execute(arguments: [entries.count, table])
        let last =
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT last FROM \(feeds) WHERE tbl = ?"), arguments: [table])
            ?? 0
        let upsert = try db.cachedStatement(
            sql: """
                INSERT INTO \(quotedLog) (id, position, revision, deleted_id, at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET position = excluded.position, revision = excluded.revision,
                    deleted_id = excluded.deleted_id, at = excluded.at
                """)
        var position = last - Int64(entries.count)
        for entry in entries {
            position += 1
            try upsert.execute(arguments: [entry.id, position, entry.revision, entry.deletedID, time])
        }
    }

    /// The table's changes after `cursor`, read in one snapshot with the feed's state.
    ///
    /// - Throws: `ChangeFeedError` for a bad cursor or limit, or when the table keeps no feed.
    public func changes(after cursor: ChangeCursor?, limit: Int) async throws -> ChangePage<Record> {
        let size = try ChangeLog.pageSize(limit)
        let name = name
        let table = table
        let feeds = RecordSQL<Record>.quote(ChangeLog.feedsTable)
        let select = """
            SELECT l.position, l.id, l.revision, r.body, l.deleted_id FROM \(quotedLog) l
            LEFT JOIN \(quotedTable) r ON r.id = l.id WHERE l.position > ? ORDER BY l.position LIMIT ?
            """
        return try await run {
            try await self.database.read { db in
                guard
                    let state = try Row.fetchOne(
                        db, sql: "SELECT feed, last, horizon FROM \(feeds) WHERE tbl = ?", arguments: [table])
                else { throw ChangeFeedError.notEnabled(in: name) }
                let feed: String = state["feed"]
                let start = try ChangeLog.start(
                    after: cursor, feed: feed, horizon: state["horizon"], last: state["last"], in: name)
                let rows = try Row.fetchAll(db.cachedStatement(sql: select), arguments: [start, size + 1]).map { row in
                    ChangeLog.Row(
                        position: row[0], id: row[1], revision: row[2], body: row[3], deletedID: row[4])
                }
                return try ChangeLog.page(rows, size: size, feed: feed, after: start, in: name)
            }
        }
    }

    /// Drops tombstones of records deleted before `date` and moves the feed's horizon past them.
    ///
    /// - Throws: `ChangeFeedError.notEnabled(in:)` when the table keeps no feed.
    public func pruneTombstones(deletedBefore date: Date) async throws -> Int {
        let name = name
        let table = table
        let feeds = RecordSQL<Record>.quote(ChangeLog.feedsTable)
        let cutoff = date.timeIntervalSince1970
        return try await run {
            try await self.database.write { db in
                guard try self.hasFeed(db) else { throw ChangeFeedError.notEnabled(in: name) }
                let old = "FROM \(self.quotedLog) WHERE deleted_id IS NOT NULL AND at < ?"
                guard
                    let summary = try Row.fetchOne(
                        db, sql: "SELECT COUNT(*), MAX(position) \(old)", arguments: [cutoff])
                else { return 0 }
                let count: Int = summary[0]
                guard count > 0, let newest = summary[1] as Int64? else { return 0 }
                try db.execute(sql: "DELETE \(old)", arguments: [cutoff])
                try db.execute(
                    sql: "UPDATE \(feeds) SET horizon = MAX(horizon, ?) WHERE tbl = ?", arguments: [newest, table])
                return count
            }
        }
    }
}
