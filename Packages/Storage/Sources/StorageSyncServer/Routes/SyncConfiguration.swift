import Errors
import _KitSupport

/// How a resource's sync routes behave: limits and how long the server keeps what replays and
/// cursors need.
public struct SyncConfiguration: Sendable, Equatable {
    /// The largest write body accepted, in bytes; a larger one is answered 413.
    public var maximumBodySize: Int
    /// How long a write's receipt is kept: a client retrying a write within this time gets the
    /// first answer. ``SyncRoutes/pruneExpired(now:)`` drops older ones.
    public var receiptRetention: Duration
    /// How long a deleted record's tombstone stays in the change feed: a client whose cursor is
    /// older must re-fetch everything (410). ``SyncRoutes/pruneExpired(now:)`` drops older ones.
    public var tombstoneRetention: Duration

    /// A configuration; the defaults keep receipts 7 days and tombstones 30 days, and accept
    /// bodies up to 1 MiB.
    public init(
        maximumBodySize: Int = 1 << 20, receiptRetention: Duration = .seconds(7 * 86_400),
        tombstoneRetention: Duration = .seconds(30 * 86_400)
    ) {
        self.maximumBodySize = maximumBodySize
        self.receiptRetention = receiptRetention
        self.tombstoneRetention = tombstoneRetention
    }
}

/// What ``SyncRoutes/pruneExpired(now:)`` dropped.
public struct SyncPruning: Sendable, Equatable {
    /// Receipts older than the receipt retention.
    public var receipts: Int
    /// Tombstones older than the tombstone retention.
    public var tombstones: Int
}

/// Why sync routes could not be made for a store.
public enum SyncSetupError: AppError, Equatable {
    /// The resource path is not one path segment of letters, digits, `-` and `_`.
    case invalidPath(String)
    /// The store's backend cannot keep receipts in its writes' transactions (only the SQLite and
    /// PostgreSQL backends can).
    case unsupportedBackend(String)
    /// The store's table keeps no change feed.
    case noChangeFeed(String)

    /// A sentence naming the problem and what to do.
    public var message: String {
        switch self {
        case .invalidPath(let path):
            "The sync resource path \(UntrustedText.shown(path)) must be one path segment of letters, digits, - and _."
        case .unsupportedBackend(let backend):
            "The record backend \(backend) cannot serve sync: use SQLiteRecordBackend or PostgresRecordBackend."
        case .noChangeFeed(let reason): "The store cannot serve sync without a change feed: \(reason)"
        }
    }
}
