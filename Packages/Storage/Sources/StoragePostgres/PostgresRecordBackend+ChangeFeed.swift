import Foundation
import PostgresNIO
import Storage

/// Where a logged write is when ``PostgresRecordBackend``'s test pause is called.
package enum ChangeFeedStep: Sendable {
    /// The records are written; the feed's positions are not taken yet.
    case beforeNumbering
    /// The positions are taken (the feed's row is locked) and logged; the commit follows.
    case afterNumbering
    /// An open's migration has done its work; its transaction, and the table's advisory lock,
    /// are not released yet.
    case migrated
}

/// The change feed on PostgreSQL: a log table beside the records (`<table>__changes`, one row
/// per record holding its latest change's position) and the feed's row in `boiler_change_feeds`.
///
/// Positions do not come from a sequence: a sequence hands numbers out before commit, so a
/// transaction holding 7 may commit after another committed 8, and a reader that already moved
/// past 8 would never see 7. Instead each logged write takes its positions at the end of its
/// transaction by updating the feed's row (`last = last + n`), which row-locks it until the
/// transaction commits or rolls back. The next writer of the same table waits on that lock, so
/// positions commit in the order they are handed out; a snapshot that sees a position sees every
/// lower one, and readers (one `REPEATABLE READ` snapshot for the feed's state and the page)
/// never skip a change. The cost: writers of one table serialise for the few statements between
/// taking positions and committing (writers of other tables do not wait).
extension PostgresRecordBackend {
    /// Creates the feeds table the tables of a database share, if it is missing, in a
    /// transaction of its own that commits before the migration's begins.
    ///
    /// Two tables opening at once on a new database would both create it, and concurrent
    /// `CREATE TABLE IF NOT EXISTS` can fail on PostgreSQL's catalog, so the first to find it
    /// missing creates it under a lock the others wait for. That lock is held only for this
    /// one statement: were it taken inside the migration, every table opening on a new
    /// database would wait for the whole migration of each table before it, one after another.
    func createFeedsTable(on connection: PostgresConnection) async throws {
        var missing = false
        for try await isMissing in try await connection.query(
            "SELECT to_regclass(\(ChangeLog.feedsTable)) IS NULL", logger: logger
        ).decode(Bool.self) {
            missing = isMissing
        }
        guard missing else { return }
        let feeds = RecordSQL<Record>.quote(ChangeLog.feedsTable)
        let logger = logger
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query(
                "SELECT pg_advisory_xact_lock(hashtext(\(ChangeLog.feedsTable)))", logger: logger)
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        CREATE TABLE IF NOT EXISTS \(feeds) (tbl TEXT COLLATE "C" PRIMARY KEY, feed TEXT NOT NULL,
                            last BIGINT NOT NULL, horizon BIGINT NOT NULL)
                        """), logger: logger)
        }
    }

    /// When `create` is true, creates this table's log and feed row, logging the records already
    /// stored so a client reading from the start gets them. Runs inside the migration's
    /// transaction, under its advisory lock, after ``createFeedsTable(on:)``. Returns whether the
    /// table keeps a feed.
    func prepareFeed(create: Bool, on connection: PostgresConnection) async throws -> Bool {
        let feeds = RecordSQL<Record>.quote(ChangeLog.feedsTable)
        var binds = PostgresBindings()
        binds.append(table)
        var exists = false
        for try await _ in try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT 1 FROM \(feeds) WHERE tbl = $1", binds: binds), logger: logger)
        {
            exists = true
        }
        if exists { try await installGuard(on: connection) }
        guard !exists, create else { return exists }
        // Writers of the table still in flight (instances opened before the feed) must commit before
        // the existing records are logged, and new ones wait for this transaction (then meet the
        // guard): no record is written between the snapshot logged here and the guard.
        try await connection.query(
            PostgresQuery(unsafeSQL: "LOCK TABLE \(quotedTable) IN SHARE ROW EXCLUSIVE MODE"), logger: logger)
        try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    CREATE TABLE IF NOT EXISTS \(quotedLog) (id TEXT COLLATE "C" PRIMARY KEY,
                        position BIGINT NOT NULL UNIQUE, revision BIGINT NOT NULL, deleted_id BYTEA,
                        at TIMESTAMPTZ NOT NULL)
                    """), logger: logger)
        // A log left by a feed whose row was removed would hold another feed's positions.
        try await connection.query(PostgresQuery(unsafeSQL: "DELETE FROM \(quotedLog)"), logger: logger)
        try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(quotedLog) (id, position, revision, deleted_id, at)
                    SELECT id, ROW_NUMBER() OVER (ORDER BY seq), 0, NULL, now() FROM \(quotedTable)
                    """), logger: logger)
        var row = PostgresBindings()
        row.append(table)
        row.append(ChangeCursor.newFeedID())
        try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(feeds) (tbl, feed, last, horizon)
                    SELECT $1, $2, COUNT(*), 0 FROM \(quotedTable)
                    """, binds: row), logger: logger)
        try await installGuard(on: connection)
        return true
    }

    /// The transaction setting a logged write turns on (`set_config(…, 't', true)`, local to the
    /// transaction) when it takes its positions.
    var loggedSetting: String { "boiler.logged_" + table.lowercased() }

    /// Makes the table refuse, at commit, a transaction that changed its rows without logging
    /// them: a backend opened before the feed existed (an instance not yet restarted after a
    /// deployment) or SQL run by hand fails loudly instead of leaving a change clients never
    /// hear of. A deferred constraint trigger checks the setting ``log(_:on:)`` turns on.
    private func installGuard(on connection: PostgresConnection) async throws {
        let function = RecordSQL<Record>.quote("\(table)_feed_guard")
        try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        IF current_setting('\(loggedSetting)', true) IS DISTINCT FROM 't' THEN
                            RAISE EXCEPTION 'table % keeps a change feed, and this transaction changed it without logging',
                                TG_TABLE_NAME USING HINT = 'write through a record backend opened after the feed was made';
                        END IF;
                        RETURN NULL;
                    END $$
                    """), logger: logger)
        try await connection.query(
            PostgresQuery(unsafeSQL: "DROP TRIGGER IF EXISTS \(function) ON \(quotedTable)"), logger: logger)
        try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    CREATE CONSTRAINT TRIGGER \(function) AFTER INSERT OR UPDATE OR DELETE ON \(quotedTable)
                    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION \(function)()
                    """), logger: logger)
    }

    /// Takes the next positions for `writes` (each record's last change in the batch) and stores
    /// them in the log, in the write's own transaction; the feed's row stays locked until commit.
    func log(_ writes: [ChangeLog.Write], on connection: PostgresConnection) async throws {
        let entries = ChangeLog.coalesced(writes)
        guard !entries.isEmpty else { return }
        await feedPause?(.beforeNumbering)
        let feeds = RecordSQL<Record>.quote(ChangeLog.feedsTable)
        var binds = PostgresBindings()
        binds.append(table)
        binds.append(Int64(entries.count))
        binds.append(loggedSetting)
        var last: Int64?
        for try await (value, _) in try await connection.query(
            PostgresQuery(
                unsafeSQL:
                    "UPDATE \(feeds) SET last = last + $2 WHERE tbl = $1 RETURNING last, set_config($3, 't', true)",
                binds: binds),
            logger: logger
        ).decode((Int64, String).self) {
            last = value
        }
        guard let last else { throw ChangeFeedError.notEnabled(in: name) }
        let first = last - Int64(entries.count) + 1
        var rows = PostgresBindings()
        rows.append(entries.map(\.id))
        rows.append(entries.indices.map { first + Int64($0) })
        rows.append(entries.map { Int64($0.revision) })
        // A saved entry's id is the empty array element, read back as NULL.
        rows.append(entries.map { ByteBuffer(bytes: $0.deletedID ?? Data()) })
        try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(quotedLog) (id, position, revision, deleted_id, at)
                    SELECT i, p, r, NULLIF(d, ''::bytea), now()
                    FROM unnest($1::text[], $2::int8[], $3::int8[], $4::bytea[]) AS e(i, p, r, d)
                    ON CONFLICT (id) DO UPDATE SET position = excluded.position, revision = excluded.revision,
                        deleted_id = excluded.deleted_id, at = excluded.at
                    """, binds: rows), logger: logger)
        await feedPause?(.afterNumbering)
    }

    /// The table's changes after `cursor`, read with the feed's state in one snapshot.
    ///
    /// - Throws: `ChangeFeedError` for a bad cursor or limit, or when the table keeps no feed.
    public func changes(after cursor: ChangeCursor?, limit: Int) async throws -> ChangePage<Record> {
        let size = try ChangeLog.pageSize(limit)
        let name = name
        let table = table
        let logger = logger
        let feeds = RecordSQL<Record>.quote(ChangeLog.feedsTable)
        let select = """
            SELECT l.position, l.id, l.revision, r.body, l.deleted_id FROM \(quotedLog) l
            LEFT JOIN \(quotedTable) r ON r.id = l.id WHERE l.position > $1 ORDER BY l.position LIMIT $2
            """
        do {
            return try await client.withConnection { connection in
                try await connection.withTransaction(logger: logger) { connection in
                    // One snapshot for the horizon check and the page: a prune committing between
                    // them could otherwise drop a tombstone this reader still needs.
                    try await connection.query(
                        "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
                    var binds = PostgresBindings()
                    binds.append(table)
                    var state: (String, Int64, Int64)?
                    for try await row in try await connection.query(
                        PostgresQuery(
                            unsafeSQL: "SELECT feed, last, horizon FROM \(feeds) WHERE tbl = $1", binds: binds),
                        logger: logger
                    ).decode((String, Int64, Int64).self) {
                        state = row
                    }
                    guard let (feed, last, horizon) = state else { throw ChangeFeedError.notEnabled(in: name) }
                    let start = try ChangeLog.start(after: cursor, feed: feed, horizon: horizon, last: last, in: name)
                    var page = PostgresBindings()
                    page.append(start)
                    page.append(Int64(size + 1))
                    var rows: [ChangeLog.Row] = []
                    for try await (position, id, revision, body, deletedID) in try await connection.query(
                        PostgresQuery(unsafeSQL: select, binds: page), logger: logger
                    ).decode((Int64, String, Int64, Data?, Data?).self) {
                        rows.append(
                            ChangeLog.Row(
                                position: position, id: id, revision: Int(revision), body: body, deletedID: deletedID))
                    }
                    return try ChangeLog.page(rows, size: size, feed: feed, after: start, in: name)
                }
            }
        } catch {
            throw Self.wrap(error, name)
        }
    }

    /// Drops tombstones of records deleted before `date` and moves the feed's horizon past them,
    /// in one transaction.
    ///
    /// - Throws: `ChangeFeedError.notEnabled(in:)` when the table keeps no feed.
    public func pruneTombstones(deletedBefore date: Date) async throws -> Int {
        let name = name
        let table = table
        let logger = logger
        let feeds = RecordSQL<Record>.quote(ChangeLog.feedsTable)
        let quotedLog = quotedLog
        do {
            return try await client.withConnection { connection in
                try await connection.withTransaction(logger: logger) { connection in
                    var feedRow = PostgresBindings()
                    feedRow.append(table)
                    var exists = false
                    // Locks the feed's row: prunes of one table run one at a time.
                    for try await _ in try await connection.query(
                        PostgresQuery(unsafeSQL: "SELECT 1 FROM \(feeds) WHERE tbl = $1 FOR UPDATE", binds: feedRow),
                        logger: logger)
                    {
                        exists = true
                    }
                    guard exists else { throw ChangeFeedError.notEnabled(in: name) }
                    var binds = PostgresBindings()
                    binds.append(table)
                    binds.append(date)
                    var result: (Int64, Int64?)?
                    for try await row in try await connection.query(
                        PostgresQuery(
                            unsafeSQL: """
                                WITH gone AS (DELETE FROM \(quotedLog) WHERE deleted_id IS NOT NULL AND at < $2
                                    RETURNING position),
                                moved AS (UPDATE \(feeds) SET horizon = GREATEST(horizon, (SELECT MAX(position) FROM gone))
                                    WHERE tbl = $1 AND EXISTS (SELECT 1 FROM gone) RETURNING 1)
                                SELECT (SELECT COUNT(*) FROM gone), (SELECT MAX(position) FROM gone)
                                FROM \(feeds) WHERE tbl = $1
                                """, binds: binds), logger: logger
                    ).decode((Int64, Int64?).self) {
                        result = row
                    }
                    guard let result else { throw ChangeFeedError.notEnabled(in: name) }
                    return Int(result.0)
                }
            }
        } catch {
            throw Self.wrap(error, name)
        }
    }
}
