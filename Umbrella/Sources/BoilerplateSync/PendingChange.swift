import Foundation

/// A local change waiting to be acknowledged by the server.
public struct PendingChange: Sendable, Equatable {
    /// Its place in the outbox: changes are sent in this order.
    public var sequence: Int64
    /// The record's id, as the protocol writes it.
    public var id: String
    /// Whether it deletes the record (else it saves it).
    public var isDeletion: Bool
    /// The `Idempotency-Key` it is sent with, every time.
    public var idempotencyKey: String
    /// `POST`, `PUT` or `DELETE` once it was first sent; nil before.
    public var sentAs: String?
    /// The `Sync-Base-Revision` it was first sent with (updates and deletes).
    public var baseRevision: Int?
}
