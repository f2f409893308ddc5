import Foundation

/// The stored answer to one idempotent write: which client sent it under which key, a
/// fingerprint of the request, and the response the server gave, kept beside a record table
/// (`<table>__receipts`) so a replay of the write is answered from it.
///
/// A receipt is written in the same transaction as the record changes it answers for (see
/// ``ReceiptRecordBackend``), so after a crash between commit and response there is a receipt
/// exactly when the change committed.
package struct WriteReceipt: Sendable, Equatable {
    /// The client's id, as it sent it.
    package var client: String
    /// The idempotency key, unique per client.
    package var key: String
    /// A digest of the request the key was first used with (method, record, base revision, body).
    package var fingerprint: String
    /// The response, in whatever form the server stores it (the sync server: JSON).
    package var response: Data

    package init(client: String, key: String, fingerprint: String, response: Data) {
        self.client = client
        self.key = key
        self.fingerprint = fingerprint
        self.response = response
    }
}

/// A write could not store its receipt: the client already used the key (possibly concurrently,
/// in a transaction that committed first). Nothing of the write was applied; read the stored
/// receipt and answer from it.
package struct WriteReceiptTaken: Error, Sendable, Equatable {
    package var client: String
    package var key: String

    package init(client: String, key: String) {
        self.client = client
        self.key = key
    }
}

/// A record backend that can add a receipt (and revision checks) to a write's own transaction:
/// the hook the sync server's idempotent writes stand on. The SQLite and PostgreSQL backends
/// conform; it is `package` because the receipts' shape is the sync protocol's business, not a
/// promise to users of `RecordStore`.
package protocol ReceiptRecordBackend<Record>: RecordBackend {
    /// Creates the table's receipts table when it has none. Call once before the first write.
    func prepareReceipts() async throws

    /// Applies `changes` and stores `receipt` in one transaction, after checking that each id in
    /// `revisions` is stored at that revision.
    ///
    /// An empty `changes` stores the receipt alone (the answer to a refused write). The receipt
    /// is inserted first, so a concurrent write under the same key waits for this one and then
    /// fails with ``WriteReceiptTaken``, instead of applying its changes a second time.
    /// - Throws: ``WriteReceiptTaken`` when the client already stored a receipt under the key;
    ///   ``RecordStoreError/staleRevision(id:expected:stored:in:)`` when a required revision is
    ///   not the stored one; ``StorageError/recordNotFound(id:in:)`` when a required record is
    ///   missing; what ``RecordBackend/apply(_:)`` throws. Then nothing was written.
    func apply(
        _ changes: [RecordChange<Record>], requiring revisions: [String: Int], receipt: WriteReceipt)
        async throws

    /// The receipt `client` stored under `key`, or nil.
    func receipt(client: String, key: String) async throws -> WriteReceipt?

    /// Drops receipts stored before `date`; returns how many.
    func pruneReceipts(storedBefore date: Date) async throws -> Int
}

/// Names shared by the database backends' receipt tables.
package enum ReceiptTable {
    /// The receipts table beside the record table `table`.
    package static func name(for table: String) -> String { table + "__receipts" }
}
