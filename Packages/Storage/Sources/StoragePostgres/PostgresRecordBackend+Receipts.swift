import Foundation
import PostgresNIO
import Storage

/// Write receipts on PostgreSQL: a table beside the records (`<table>__receipts`), written first
/// in the write's own transaction. A concurrent write under the same key blocks on the receipt's
/// primary key until the first commits, then finds it taken and changes nothing; should the first
/// roll back, the second goes ahead.
extension PostgresRecordBackend: ReceiptRecordBackend {
    var quotedReceipts: String { RecordSQL<Record>.quote(ReceiptTable.name(for: table)) }

    /// Creates the receipts table and its index on the time receipts were stored (for pruning),
    /// under the table's advisory lock: concurrent `CREATE TABLE IF NOT EXISTS` can fail on
    /// PostgreSQL's catalog when several instances start at once.
    package func prepareReceipts() async throws {
        let logger = logger
        let table = table
        let receipts = quotedReceipts
        let index = RecordSQL<Record>.quote(ReceiptTable.name(for: table) + "_at")
        do {
            try await client.withConnection { connection in
                try await connection.withTransaction(logger: logger) { connection in
                    try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(table)))", logger: logger)
                    try await connection.query(
                        PostgresQuery(
                            unsafeSQL: """
                                CREATE TABLE IF NOT EXISTS \(receipts) (client TEXT COLLATE "C" NOT NULL,
                                    key TEXT COLLATE "C" NOT NULL, fingerprint TEXT NOT NULL, response BYTEA NOT NULL,
                                    at TIMESTAMPTZ NOT NULL, PRIMARY KEY (client, key))
                                """), logger: logger)
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "CREATE INDEX IF NOT EXISTS \(index) ON \(receipts) (at)"),
                        logger: logger)
                }
            }
        } catch {
            throw Self.wrap(error, name)
        }
    }

    package func apply(
        _ changes: [RecordChange<Record>], requiring revisions: [String: Int], receipt: WriteReceipt
    )
        async throws
    {
        try await write(changes, requiring: revisions, receipt: receipt)
    }

    package func receipt(client: String, key: String) async throws -> WriteReceipt? {
        let logger = logger
        let receipts = quotedReceipts
        do {
            return try await self.client.withConnection { connection in
                var binds = PostgresBindings()
                binds.append(client)
                binds.append(key)
                for try await (fingerprint, response) in try await connection.query(
                    PostgresQuery(
                        unsafeSQL: "SELECT fingerprint, response FROM \(receipts) WHERE client = $1 AND key = $2",
                        binds: binds), logger: logger
                ).decode((String, Data).self) {
                    return WriteReceipt(client: client, key: key, fingerprint: fingerprint, response: response)
                }
                return nil
            }
        } catch {
            throw Self.wrap(error, name)
        }
    }

    package func pruneReceipts(storedBefore date: Date) async throws -> Int {
        let logger = logger
        let receipts = quotedReceipts
        do {
            return try await client.withConnection { connection in
                var binds = PostgresBindings()
                binds.append(date)
                var count = 0
                for try await _ in try await connection.query(
                    PostgresQuery(unsafeSQL: "DELETE FROM \(receipts) WHERE at < $1 RETURNING 1", binds: binds),
                    logger: logger)
                {
                    count += 1
                }
                return count
            }
        } catch {
            throw Self.wrap(error, name)
        }
    }

    /// Inserts `receipt`, or throws `WriteReceiptTaken` when the client used its key before
    /// (waiting first for an uncommitted write under the same key).
    func store(_ receipt: WriteReceipt, on connection: PostgresConnection) async throws {
        var binds = PostgresBindings()
        binds.append(receipt.client)
        binds.append(receipt.key)
        binds.append(receipt.fingerprint)
        try binds.append(receipt.response)
        var stored = false
        for try await _ in try await connection.query(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(quotedReceipts) (client, key, fingerprint, response, at)
                    VALUES ($1, $2, $3, $4, now()) ON CONFLICT (client, key) DO NOTHING RETURNING 1
                    """, binds: binds), logger: logger)
        {
            stored = true
        }
        if !stored { throw WriteReceiptTaken(client: receipt.client, key: receipt.key) }
    }

    /// Throws unless each record in `revisions` is stored at that revision; locks their rows, so
    /// no other write changes them before this transaction ends.
    func check(_ revisions: [String: Int], on connection: PostgresConnection) async throws {
        for (id, expected) in revisions.sorted(by: { $0.key < $1.key }) {
            var binds = PostgresBindings()
            binds.append(id)
            var current: Int?
            for try await revision in try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT revision FROM \(quotedTable) WHERE id = $1 FOR UPDATE", binds: binds),
                logger: logger
            ).decode(Int64.self) {
                current = Int(revision)
            }
            guard let current else { throw StorageError.recordNotFound(id: id, in: name) }
            guard current == expected else {
                throw RecordStoreError.staleRevision(id: id, expected: expected, stored: current, in: name)
            }
        }
    }
}
