import Foundation
import Serialization

/// Where a ``SyncEngine`` stands, as a view shows it: what is waiting to be sent, when the last
/// sync succeeded, what failed last, and whether sync is paused or re-reading everything.
public struct SyncState: Sendable, Equatable {
    /// Local changes not yet acknowledged by the server (outbox entries).
    public var pendingCount = 0
    /// When the last sync (push and pull) finished without error, by this device's clock — for
    /// display only: nothing is ordered by it.
    public var lastSyncedAt: Date?
    /// The error the last sync ended with, whatever failed (a local database failure is
    /// ``SyncError/database(detail:)``); nil after a successful one. A cancelled sync leaves it.
    public var lastError: SyncError?
    /// Whether the server asked for a full re-fetch (410) and where that stands.
    public var refetch: SyncRefetch = .none
    /// Why sync is paused, or nil when it runs.
    public var pause: SyncPause?
    /// Whether a sync is running now.
    public var isSyncing = false

    /// A state with nothing pending, never synced.
    public init() {}

    /// Whether sync is paused (see ``pause``).
    public var isPaused: Bool { pause != nil }
}

/// The full re-fetch a server asks for when a client's cursor is too old (410 with `refetch`).
public enum SyncRefetch: Sendable, Equatable {
    /// The cursor is good.
    case none
    /// The server refused the cursor; the next sync reads everything from the start.
    case needed
    /// Reading everything from the start; local records the server no longer has are removed
    /// at its end (unless they have pending changes). Pending changes are kept throughout.
    case running
}

/// Why a ``SyncEngine`` does not sync until told to.
public enum SyncPause: Sendable, Equatable {
    /// The server answered 401 or 403. Change the credentials (the `HTTPClient`'s `auth`), then
    /// call ``SyncEngine/resume()``.
    case unauthorized(status: Int)
    /// The server sent a record of model version `found`, newer than the `supported` one this
    /// app reads. Nothing of it was applied and the cursor stayed; update the app.
    case appTooOld(found: ModelVersion, supported: ModelVersion)
    /// ``SyncEngine/pause()`` was called.
    case byApp
}
