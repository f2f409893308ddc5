import Foundation

/// How a ``SyncEngine`` decides a conflict between a local change and the server's record.
///
/// ```swift
/// let engine = SyncEngine(store: notes, client: client, path: "sync/notes",
///                         configuration: .init(conflictPolicy: .merge { local, server in
///                             var merged = server
///                             merged.text = server.text + "\n" + local.text
///                             return merged
///                         }))
/// ```
public enum SyncConflictPolicy<Record: Sendable>: Sendable {
    /// The server's record (or its deletion) replaces the local change. The default.
    case serverWins
    /// The local record (or deletion) is sent again on the server's revision, under a new
    /// idempotency key; an edit whose record the server deleted re-creates it.
    case clientWins
    /// `merge(local, server)` is stored and sent on the server's revision. When one side is a
    /// deletion there is nothing to merge and the server wins.
    case merge(@Sendable (_ local: Record, _ server: Record) -> Record)
    /// `decide` sees the whole conflict (either side may be nil: deleted) and chooses.
    case custom(@Sendable (_ conflict: SyncConflictInput<Record>) -> SyncDecision<Record>)
}

/// What a ``SyncConflictPolicy/custom(_:)`` policy is asked to decide.
public struct SyncConflictInput<Record: Sendable>: Sendable {
    /// The record's id, as the protocol writes it.
    public var id: String
    /// What the conflict is.
    public var kind: SyncConflictKind
    /// The local record, or nil when it was deleted locally.
    public var local: Record?
    /// The server's record, or nil when the server has none.
    public var server: Record?
    /// The server's revision of the record (of its tombstone when deleted), when known.
    public var serverRevision: Int?
}

/// Which conflict it was.
public enum SyncConflictKind: String, Sendable, Equatable, Codable {
    /// A pushed update or delete was based on a revision the server no longer has (409).
    case staleRevision
    /// A pushed update or delete names a record the server does not have (409).
    case recordMissing
    /// A pushed create names an id the server already has (409).
    case alreadyExists
    /// A pulled change touched a record with local changes not yet pushed.
    case remoteChange
}

/// How a conflict was decided.
public enum SyncDecision<Record: Sendable>: Sendable {
    /// The server's record (or deletion) was kept; the local change was dropped.
    case keptServer
    /// The local record (or deletion) was kept and queued to be sent on the server's revision.
    case keptLocal
    /// This record was stored and queued to be sent on the server's revision.
    case merged(Record)
}

extension SyncDecision: Equatable where Record: Equatable {}

/// One conflict and how the policy decided it: stored in the database in the same transaction
/// as the decision (``SyncedRecordStore/conflicts()``) and sent to ``SyncEngine/conflictReports()``.
public struct SyncConflict<Record: Sendable>: Sendable {
    /// The conflict's place in the store's conflict log, from 1, in the order they were decided.
    public var sequence: Int64
    /// The record's id, as the protocol writes it.
    public var id: String
    /// What the conflict was.
    public var kind: SyncConflictKind
    /// The local record when the conflict was found, or nil when it was deleted locally.
    public var local: Record?
    /// The server's record, or nil when the server has none.
    public var server: Record?
    /// The server's revision of the record (of its tombstone when deleted), when known.
    public var serverRevision: Int?
    /// What the policy decided.
    public var decision: SyncDecision<Record>
}

extension SyncConflict: Equatable where Record: Equatable {}
