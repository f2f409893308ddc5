import Foundation
import GRDB
import Storage

/// Write receipts on SQLite: a table beside the records (`<table>__receipts`), written in the
/// write's own transaction. SQLite runs one write transaction at a time, so a second write under
/// the same key finds the first one's receipt and changes nothing.
extension SQLiteRecordBackend: ReceiptRecordBackend {
    var quotedReceipts: String { RecordSQL<Record>.quote(ReceiptTable.name(for: table)) }

    /// Creates the receipts table and its index on the time receipts were stored (for pruning).
    package func prepareReceipts() async throws {
        let receipts = quotedReceipts
        let index = RecordSQL<Record>.quote(ReceiptTable.name(for: table) + "_at")
        try await run {
            try await self.database.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS \(receipts) (client TEXT NOT NULL, key TEXT NOT NULL,
                            fingerprint TEXT NOT NULL, response BLOB NOT NULL, at REAL NOT NULL,
                            PRIMARY KEY (client, key))
                        """)
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(index) ON \(receipts) (at)")
            }
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
        let sql = "SELECT fingerprint, response FROM \(quotedReceipts) WHERE client = ? AND key = ?"
        return try await run {
            try await self.database.read { db in
                try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [client, key]).map { row in
                    WriteReceipt(client: client, key: key, fingerprint: row[0], response: row[1])
                }
            }
        }
    }

    package func pruneReceipts(storedBefore date: Date) async throws -> Int {
        let sql = "DELETE FROM \(quotedReceipts) WHERE at < ?"
        let cutoff = date.timeIntervalSince1970
        return try await run {
            try await self.database.write { db in
                try db.execute(sql: sql, arguments: [cutoff])
                return db.changesCount
            }
        }
    }

    /// Inserts `receipt`, or throws `WriteReceiptTaken` when the client used its key before.
    func store(_ receipt: WriteReceipt, at time: Double, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO \(quotedReceipts) (client, key, fingerprint, response, at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (client, key) DO NOTHING
                """
        ).execute(arguments: [receipt.client, receipt.key, receipt.fingerprint, receipt.response, time])
        if db.changesCount == 0 { throw WriteReceiptTaken(client: receipt.client, key: receipt.key) }
    }

    /// Throws unless each record in `revisions` is stored at that revision.
    func check(_ revisions: [String: Int], in db: Database) throws {
        for (id, expected) in revisions.sorted(by: { $0.key < $1.key }) {
            guard let stored = try Data.fetchOne(db.cachedStatement(sql: readBody), arguments: [id]) else {
                throw StorageError.recordNotFound(id: id, in: name)
            }
            let current = Self.revision(of: try RecordCoding.decode(Record.self, from: stored, in: name)) ?? 0
            guard current == expected else {
                throw RecordStoreError.staleRevision(id: id, expected: expected, stored: current, in: name)
            }
        }
    }
}
